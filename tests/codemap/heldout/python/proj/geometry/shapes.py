from __future__ import annotations

import math

ORIGIN = 0  # @def constant ORIGIN


def register(name):  # @def function register
    def wrap(cls):  # @def function register.wrap
        return cls

    return wrap


double = lambda v: v * 2  # noqa: E731  # @def function double


class Point:  # @def class Point
    def __init__(self, x: float, y: float) -> None:  # @def method Point.__init__
        self.x, self.y = x, y

    def __add__(self, other: Point) -> Point:  # @def method Point.__add__ @ref Point>Point
        return Point(self.x + other.x, self.y + other.y)  # @ref Point>Point

    @property
    def norm(self) -> float:  # @def method Point.norm
        return math.hypot(self.x, self.y)

    def scale(self, k: float) -> Point:  # @def method Point.scale @ref Point>Point
        return Point(double(self.x) * k, self.y * k)  # @ref Point>Point @ref double>double

    @staticmethod
    def zero() -> Point:  # @def method Point.zero @ref Point>Point
        return Point(0, 0)  # @ref Point>Point

    @classmethod
    def unit(cls) -> Point:  # @def method Point.unit @ref Point>Point
        return cls.zero()  # @ref zero>Point.zero


def describe(shape) -> str:  # @def function describe
    return f"{shape!r}"


class Base:  # @def class Base
    def hello(self) -> str:  # @def method Base.hello
        return "hi"


@register("square")  # @ref register>register
class Square(Base):  # @def class Square @ref Base>Base
    class Meta:  # @def class Square.Meta
        label = "sq"

    def __init__(self, side: float) -> None:  # @def method Square.__init__
        self.side = side

    def describe(self) -> str:  # @def method Square.describe
        return describe(self)  # @ref describe>describe

    def greet(self) -> str:  # @def method Square.greet
        return super().hello() + self.hello()  # @ref hello>Base.hello

    def corner(self) -> Point:  # @def method Square.corner @ref Point>Point
        z = Point.zero()  # @ref Point>Point @ref zero>Point.zero
        return z.scale(self.side)  # @ref scale>Point.scale


def make_counter():  # @def function make_counter
    count = 0

    def step():  # @def function make_counter.step
        nonlocal count
        count += 1
        return count

    step()  # @ref step>make_counter.step
    return step


def make_timer():  # @def function make_timer
    def step():  # @def function make_timer.step
        return 0

    return step()  # @ref step>make_timer.step
