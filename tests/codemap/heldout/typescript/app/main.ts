import { Round, clamp as limit } from "./lib/index";
import * as shapes from "./lib/shapes";
import type { Pair, Shape } from "./lib/shapes";

function total(items: Shape[]): number { // @def function total @ref Shape>Shape
  let sum = 0;
  for (const s of items) sum += s.area();
  return limit(sum, 0, 100); // @ref limit>clamp
}

const half = function (v: number): number { // @def function half
  return v / 2;
};

namespace Util { // @def namespace Util
  export function twice(v: number): number { // @def function Util.twice
    return half(v) * 4; // @ref half>half
  }
}

export function main(): Pair<number> { // @def function main @ref Pair>Pair
  const c = Round.unit(); // @ref Round>Circle @ref unit>Circle.unit
  const d = new shapes.Circle(2).grow(1); // @ref Circle>Circle @ref grow>Circle.grow
  const b = new shapes.Box([c, d]); // @ref Box>Box
  return [total([c, d]), Util.twice(b.items.length)]; // @ref total>total @ref twice>Util.twice @ref Util>Util
}

main(); // @ref main>main
