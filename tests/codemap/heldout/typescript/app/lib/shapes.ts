export interface Shape { // @def interface Shape
  area(): number; // @def method Shape.area
}

export type Pair<T> = [T, T]; // @def type Pair

export function clamp(v: number, lo: number, hi: number): number { // @def function clamp
  return Math.min(Math.max(v, lo), hi);
}

export const square = (v: number): number => v * v; // @def function square

export class Circle implements Shape { // @def class Circle @ref Shape>Shape
  static count = 0; // @def field Circle.count

  constructor(private r: number) { // @def method Circle.constructor
    Circle.count += 1; // @ref Circle>Circle
  }

  static unit(): Circle { // @def method Circle.unit @ref Circle>Circle
    return new Circle(1); // @ref Circle>Circle
  }

  get radius(): number { // @def method Circle.radius
    return this.r;
  }

  area(): number { // @def method Circle.area
    return square(this.r) * Math.PI; // @ref square>square
  }

  grow(by: number): Circle { // @def method Circle.grow @ref Circle>Circle
    return new Circle(clamp(this.r + by, 0, 10)); // @ref Circle>Circle @ref clamp>clamp
  }
}

export class Box<T> { // @def class Box
  constructor(readonly items: T[]) {} // @def method Box.constructor

  map<U>(fn: (t: T) => U): Box<U> { // @def method Box.map @ref Box>Box
    return new Box(this.items.map(fn)); // @ref Box>Box
  }
}
