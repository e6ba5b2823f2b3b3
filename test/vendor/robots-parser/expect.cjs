// The part of chai's `expect` that Robots.cjs uses, on node:assert, so the
// suite runs under node:test without chai: `to.equal` is strict equality
// (===), `to.eql` deep equality.
const assert = require("node:assert/strict");

function expect(actual) {
  return {
    to: {
      equal(expected) {
        assert.equal(actual, expected);
      },
      eql(expected) {
        assert.deepEqual(actual, expected);
      },
    },
  };
}

module.exports = { expect };
