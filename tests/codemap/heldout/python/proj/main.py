import geometry.shapes as gs
from geometry import Sq
from geometry import make_counter as counter
from geometry.shapes import Point as P


def main():  # @def function main
    p = P.zero()  # @ref P>Point @ref zero>Point.zero
    q = gs.Point(1, 2)  # @ref Point>Point
    s = Sq(2)  # @ref Sq>Square
    tick = counter()  # @ref counter>make_counter
    print(gs.describe(s), p + q, tick())  # @ref describe>describe@shapes.py
    return s.greet()  # @ref greet>Square.greet


if __name__ == "__main__":
    main()  # @ref main>main
