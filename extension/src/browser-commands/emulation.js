// Device, geolocation, media-feature and vision-deficiency emulation (CDP Emulation.*).
// Overrides live only as long as the debugger session, so the tab stays attached while any
// override is on; browser.clearEmulation removes them all and lets the debugger detach.

import { int, num, str, bool, tabId as requireTabId, invalid } from './params.js';
import { hold, release, send, holds } from './debugger.js';

const VISION = new Set(['none', 'blurredVision', 'reducedContrast', 'achromatopsia', 'deuteranopia', 'protanopia', 'tritanopia']);

async function withEmulationHold(tabId, fn) {
  await hold(tabId, 'emulation');
  try {
    return await fn();
  } catch (err) {
    throw err;
  }
}

export const commands = {
  'browser.emulateDevice': async (params) => {
    const tabId = requireTabId(params);
    const width = int(params, 'width', { min: 1 });
    const height = int(params, 'height', { min: 1 });
    const deviceScaleFactor = num(params, 'deviceScaleFactor', { required: false, fallback: 1 });
    const mobile = bool(params, 'mobile', false);
    const userAgent = str(params, 'userAgent', { required: false, max: 2000 });
    return withEmulationHold(tabId, async () => {
      await send(tabId, 'Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor, mobile });
      await send(tabId, 'Emulation.setTouchEmulationEnabled', { enabled: mobile, maxTouchPoints: mobile ? 5 : 1 });
      if (userAgent !== undefined) await send(tabId, 'Emulation.setUserAgentOverride', { userAgent });
      return { ok: true, tabId, width, height, deviceScaleFactor, mobile, userAgent: userAgent ?? null };
    });
  },

  'browser.setGeolocation': async (params) => {
    const tabId = requireTabId(params);
    const latitude = num(params, 'latitude');
    const longitude = num(params, 'longitude');
    if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) throw invalid('latitude must be -90..90 and longitude -180..180');
    const accuracy = num(params, 'accuracy', { required: false, fallback: 100 });
    return withEmulationHold(tabId, async () => {
      await send(tabId, 'Emulation.setGeolocationOverride', { latitude, longitude, accuracy });
      return { ok: true, tabId, latitude, longitude, accuracy };
    });
  },

  'browser.setMediaFeatures': async (params) => {
    const tabId = requireTabId(params);
    const features = params?.features;
    if (!Array.isArray(features) || features.length === 0 || !features.every((f) => f && typeof f.name === 'string' && typeof f.value === 'string')) {
      throw invalid('Invalid features: expected [{name, value}, ...]');
    }
    return withEmulationHold(tabId, async () => {
      await send(tabId, 'Emulation.setEmulatedMedia', { features: features.map(({ name, value }) => ({ name, value })) });
      return { ok: true, tabId, features };
    });
  },

  'browser.emulateVisionDeficiency': async (params) => {
    const tabId = requireTabId(params);
    const type = str(params, 'type', { max: 40 });
    if (!VISION.has(type)) throw invalid(`Invalid type '${type}'`);
    return withEmulationHold(tabId, async () => {
      await send(tabId, 'Emulation.setEmulatedVisionDeficiency', { type });
      return { ok: true, tabId, type };
    });
  },

  'browser.clearEmulation': async (params) => {
    const tabId = requireTabId(params);
    if (!holds(tabId, 'emulation')) return { ok: true, tabId, wasEmulating: false };
    await send(tabId, 'Emulation.clearDeviceMetricsOverride').catch(() => {});
    await send(tabId, 'Emulation.setTouchEmulationEnabled', { enabled: false }).catch(() => {});
    await send(tabId, 'Emulation.clearGeolocationOverride').catch(() => {});
    await send(tabId, 'Emulation.setEmulatedMedia', { media: '', features: [] }).catch(() => {});
    await send(tabId, 'Emulation.setEmulatedVisionDeficiency', { type: 'none' }).catch(() => {});
    // The user-agent override has no "clear" command; it ends with the session, which
    // detaches once nothing else holds it.
    release(tabId, 'emulation');
    return { ok: true, tabId, wasEmulating: true };
  },
};
