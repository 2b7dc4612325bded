package animal

import "fmt"

const Legs = 4 // @def constant Legs

type Speaker interface { // @def type Speaker
	Speak() string // @def method Speaker.Speak
}

type Dog struct { // @def type Dog
	Name string
}

func (d Dog) Speak() string { // @def method Dog.Speak @ref Dog>Dog
	return fmt.Sprintf("%s: woof", d.Name)
}

func (d *Dog) Rename(n string) *Dog { // @def method Dog.Rename @ref Dog>Dog
	d.Name = n
	return d
}

type Stack[T any] struct { // @def type Stack
	items []T
}

func (s *Stack[T]) Push(v T) { // @def method Stack.Push @ref Stack>Stack
	s.items = append(s.items, v)
}

func NewDog(name string) *Dog { // @def function NewDog @ref Dog>Dog
	return &Dog{Name: name} // @ref Dog>Dog
}

func Map[T, U any](xs []T, f func(T) U) []U { // @def function Map
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
