#include "vec.hpp"

using mx::Vec2;

static mx::Real length2(const Vec2 &v) { // @def function length2 @ref Real>mx.Real @ref Vec2>mx.Vec2
    return v.norm2(); // @ref norm2>mx.Vec2.norm2
}

int main() { // @def function main
    Vec2 a = Vec2::zero(); // @ref Vec2>mx.Vec2 @ref zero>mx.Vec2.zero
    mx::Stack<int> s; // @ref Stack>mx.Stack
    s.push(1); // @ref push>mx.Stack.push
    mx::Point p; // @ref Point>mx.Point
    auto f = [](double d) { return mx::detail::sq(d); }; // @ref sq>mx.detail.sq
    return (int)(length2(a) + f(2.0)) + SQUARE(2) + (s.empty() ? 0 : 1); // @ref length2>length2 @ref SQUARE>SQUARE @ref empty>mx.Stack.empty
}
