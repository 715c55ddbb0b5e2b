// Waits for a condition (sync or async) by polling, with a deadline, so a test never hangs
// on something that does not happen and says what it waited for.
export async function until(pred, what = 'condition', timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await pred()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
