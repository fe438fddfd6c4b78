import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as z from "zod/mini";
import { lazy, strict, wholeNumber } from "../../src/schema/zod.ts";

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe("wholeNumber()", () => {
  it("takes a whole number from min, refusing the rest in the house's words", () => {
    assert.equal(wholeNumber(1).parse(3), 3);
    assert.equal(message(wholeNumber(1).safeParse(1.5)), "expected a whole number");
    assert.equal(message(wholeNumber(1).safeParse(0)), "expected a whole number >= 1");
    assert.match(message(wholeNumber(1).safeParse("3"))!, /expected number, received string/);
  });
});

describe("strict()", () => {
  it("refuses an unknown key naming it and the keys it knows", () => {
    const s = strict({ name: z.string(), repeats: z.number() });
    assert.equal(
      message(s.safeParse({ name: "a", repeats: 1, repaets: 2 })),
      'Unknown key "repaets"; the known keys are name, repeats',
    );
  });
});

describe("lazy()", () => {
  it("builds once, on first use", () => {
    let built = 0;
    const get = lazy(() => ({ n: ++built }));
    assert.equal(built, 0);
    assert.equal(get(), get());
    assert.equal(built, 1);
  });
});
