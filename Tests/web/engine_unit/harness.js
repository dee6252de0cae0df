// The browser unit tests' little harness: register with `test`, check with `assert`/`equal`,
// and `run()` once every test is registered; results land in #out and window.__results, where
// pytest (test_engine_unit.py) reads them.
const tests = [];

export const test = (name, body) => tests.push({ name, body });

export function assert(condition, message) { if (!condition) throw new Error(message); }

export function equal(actual, expected, message = '') {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${message} expected ${e}, got ${a}`);
}

export async function run() {
  const results = { passed: [], failed: [] };
  for (const { name, body } of tests) {
    try { await body(); results.passed.push(name); } catch (error) { results.failed.push(`${name}: ${error.message}`); }
  }
  document.getElementById('out').textContent = JSON.stringify(results, null, 2);
  window.__results = results;
}
