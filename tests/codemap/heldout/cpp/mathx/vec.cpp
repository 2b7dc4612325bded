#include "vec.hpp"

namespace mx { // @def namespace mx
Vec2 Vec2::operator+(const Vec2 &o) const { // @def method mx.Vec2.operator+ @ref Vec2>mx.Vec2
    return Vec2(x + o.x, y + o.y); // @ref Vec2>mx.Vec2
}

Vec2 Vec2::zero() { return Vec2(0, 0); } // @def method mx.Vec2.zero @ref Vec2>mx.Vec2

template <typename T>
void Stack<T>::push(const T &v) { // @def method mx.Stack.push @ref Stack>mx.Stack
    ++size_;
}
} // namespace mx
