// Page operations that change what a page holds: focus, preparing a field for typing,
// choosing options, filling several fields at once, and marking a file input for upload.
(() => {
  'use strict';
  const parts = globalThis.__opentabsAgentParts;
  const { AgentError, fail, describe, resolve, scrollIntoViewIfNeeded, markForInspection } = parts;

  function setNativeValue(el, value) {
    const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : el.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  }

  const fire = (el, type, init = {}) => el.dispatchEvent(new Event(type, { bubbles: true, cancelable: true, composed: true, ...init }));

  const optionList = (el) => [...el.options].slice(0, 30).map((o) => `${o.value} (${o.label})`).join(', ');

  // Puts the caret at the end of a field or contenteditable, or selects all of it.
  function placeCaret(el, field, selectAll) {
    if (field) {
      const end = el.value.length;
      // Inputs of type email or number have no selection API.
      try { if (selectAll) el.setSelectionRange(0, end); else el.setSelectionRange(end, end); } catch { if (selectAll) el.select(); }
      return;
    }
    const doc = el.ownerDocument;
    const range = doc.createRange();
    range.selectNodeContents(el);
    if (!selectAll) range.collapse(false);
    const sel = doc.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }

  // How a form field is filled: 'check', 'select', 'text', 'editable', or null when it is not a field.
  function fillKindOf(el) {
    if (el.tagName === 'INPUT' && ['checkbox', 'radio'].includes(el.type)) return 'check';
    if (el.tagName === 'SELECT') return 'select';
    if ((el.tagName === 'INPUT' && !['button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(el.type)) || el.tagName === 'TEXTAREA') return 'text';
    return el.isContentEditable ? 'editable' : null;
  }

  function checkedOf(value, el, i, what) {
    if (value === true || value === 'true' || value === 'on' || value === 'checked') return true;
    if (value === false || value === 'false' || value === 'off' || value === '') return false;
    return fail(`fields[${i}] (${what}) is a ${el.type}: give true or false`);
  }

  // Resolves and checks one field of fillForm, changing nothing.
  function fillTargetOf(f, i) {
    let el;
    try { el = resolve(f); } catch (err) {
      if (err instanceof AgentError) fail(`fields[${i}]: ${err.message}`);
      throw err;
    }
    const what = f.ref ?? f.selector;
    const kind = fillKindOf(el);
    if (!kind) fail(`fields[${i}] (${what}) is a <${el.tagName.toLowerCase()}${el.type ? ` type=${el.type}` : ''}>, not a fillable field`);
    if (el.disabled) fail(`fields[${i}] (${what}) is disabled`);
    if (kind === 'text' && el.readOnly) fail(`fields[${i}] (${what}) is read-only`);
    let option = null;
    if (kind === 'select') {
      const v = String(f.value);
      option = [...el.options].find((o) => o.value === v) ?? [...el.options].find((o) => o.label.trim() === v.trim());
      if (!option) fail(`fields[${i}] (${what}): no option with value or label ${JSON.stringify(v)}; options: ${optionList(el)}`);
    }
    const checked = kind === 'check' ? checkedOf(f.value, el, i, what) : null;
    return { el, kind, option, checked, value: f.value };
  }

  // Fills one checked field and reports what it holds now.
  function fillOne(t) {
    const { el } = t;
    el.focus();
    if (t.kind === 'check') {
      // A real click toggles it and runs the page's handlers; a radio cannot be unchecked by a click.
      if (el.checked !== t.checked) {
        if (t.checked || el.type === 'checkbox') el.click();
        else { el.checked = false; fire(el, 'input'); fire(el, 'change'); }
      }
      return { ...describe(el), checked: el.checked };
    }
    if (t.kind === 'select') {
      t.option.selected = true;
      fire(el, 'input');
      fire(el, 'change');
      return { ...describe(el), value: el.value, label: t.option.label };
    }
    if (t.kind === 'text') {
      setNativeValue(el, String(t.value));
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: String(t.value) }));
      fire(el, 'change');
      return { ...describe(el), value: el.type === 'password' ? '(hidden)' : el.value };
    }
    const doc = el.ownerDocument;
    doc.execCommand('selectAll');
    doc.execCommand('insertText', false, String(t.value));
    return { ...describe(el), value: el.innerText };
  }

  const ops = {
    focus(a) {
      const el = resolve(a);
      el.focus();
      return describe(el);
    },

    // Focuses a field for typing through the keyboard: the caret goes to the end, or with
    // a.clear the whole content is selected so the typed text replaces it.
    prepareTyping(a) {
      const el = resolve(a);
      const field = el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';
      if (!field && !el.isContentEditable) fail(`Element ${a.ref ?? a.selector} (${el.tagName.toLowerCase()}) is not a text field or contenteditable; type into a field, or press keys with browser_press_key`);
      if (field && (el.disabled || el.readOnly)) fail(`Element ${a.ref ?? a.selector} is ${el.disabled ? 'disabled' : 'read-only'}`);
      scrollIntoViewIfNeeded(el);
      el.focus();
      const hadText = field ? el.value !== '' : el.innerText.trim() !== '';
      placeCaret(el, field, a.clear);
      const focusRoot = el.getRootNode(); // a shadow root's activeElement names its own focus
      if (focusRoot.activeElement !== el && !el.contains(focusRoot.activeElement)) fail(`Element ${a.ref ?? a.selector} did not take focus`);
      return { ...describe(el), hadText };
    },

    select(a) {
      const el = resolve(a);
      if (el.tagName !== 'SELECT') fail(`Element ${a.ref ?? a.selector} is a <${el.tagName.toLowerCase()}>, not a <select>`);
      if (a.value === undefined && a.label === undefined) fail('Give value or label');
      const opt = [...el.options].find((o) => (a.value !== undefined ? o.value === a.value : o.label.trim() === a.label.trim()));
      if (!opt) fail(`No option with ${a.value !== undefined ? `value '${a.value}'` : `label '${a.label}'`}; options: ${optionList(el)}`);
      el.focus();
      opt.selected = true;
      fire(el, 'input');
      fire(el, 'change');
      return { ...describe(el), value: el.value, label: opt.label };
    },

    fillForm(a) {
      // Resolve every field first, so a bad field changes nothing.
      const targets = a.fields.map(fillTargetOf);
      const out = targets.map(fillOne);
      return { filled: out.length, fields: out };
    },

    markFileInput(a) {
      const el = resolve(a);
      if (el.tagName !== 'INPUT' || el.type !== 'file') fail(`Element ${a.ref ?? a.selector} is a <${el.tagName.toLowerCase()}${el.type ? ` type=${el.type}` : ''}>, not an <input type=file>`);
      if (el.disabled) fail(`Element ${a.ref ?? a.selector} is disabled`);
      if (el.ownerDocument !== document || el.getRootNode() !== document) fail('File upload works on inputs of the top document only (not inside iframes or shadow roots)');
      if (!el.multiple && a.count > 1) fail(`Element ${a.ref ?? a.selector} takes one file (no multiple attribute); ${a.count} were given`);
      return { ...describe(el), token: markForInspection(el) };
    },
  };

  Object.assign((parts.ops ??= Object.create(null)), ops);
})();
