#pragma once
#include <string>

#define SQUARE(x) ((x) * (x)) // @def macro SQUARE

namespace mx { // @def namespace mx
namespace detail { // @def namespace mx.detail
inline double sq(double v) { return SQUARE(v); } // @def function mx.detail.sq @ref SQUARE>SQUARE
} // namespace detail

struct Vec2 { // @def class mx.Vec2
    double x, y;
    Vec2(double x, double y) : x(x), y(y) {} // @def method mx.Vec2.Vec2
    Vec2 operator+(const Vec2 &o) const; // @def prototype mx.Vec2.operator+ @ref Vec2>mx.Vec2
    bool operator==(const Vec2 &o) const { return x == o.x && y == o.y; } // @def method mx.Vec2.operator== @ref Vec2>mx.Vec2
    double norm2() const { return detail::sq(x) + detail::sq(y); } // @def method mx.Vec2.norm2 @ref sq>mx.detail.sq
    static Vec2 zero(); // @def prototype mx.Vec2.zero @ref Vec2>mx.Vec2
};

template <typename T>
class Stack { // @def class mx.Stack
  public:
    void push(const T &v); // @def prototype mx.Stack.push
    bool empty() const { return size_ == 0; } // @def method mx.Stack.empty
  private:
    int size_ = 0;
};

class Named { // @def class mx.Named
  public:
    virtual ~Named() = default;
    virtual std::string name() const = 0; // @def prototype mx.Named.name
};

class Point : public Named { // @def class mx.Point @ref Named>mx.Named
  public:
    std::string name() const override { return "point"; } // @def method mx.Point.name
};

using Real = double; // @def type mx.Real
} // namespace mx
