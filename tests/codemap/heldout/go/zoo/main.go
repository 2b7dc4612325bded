package main

import (
	"fmt"

	pets "example.com/zoo/animal"
)

type Kennel struct { // @def type Kennel
	pets.Speaker // @ref Speaker>Speaker
	size int
}

var greet = func(s pets.Speaker) string { // @def variable greet @ref Speaker>Speaker
	return s.Speak() // @ref Speak>Speaker.Speak
}

func (k Kennel) Size() int { // @def method Kennel.Size @ref Kennel>Kennel
	return k.size * pets.Legs // @ref Legs>Legs
}

func main() { // @def function main
	d := pets.NewDog("rex").Rename("max") // @ref NewDog>NewDog @ref Rename>Dog.Rename
	k := Kennel{Speaker: d, size: 2} // @ref Kennel>Kennel
	st := &pets.Stack[int]{} // @ref Stack>Stack
	st.Push(k.Size()) // @ref Push>Stack.Push @ref Size>Kennel.Size
	names := pets.Map([]int{1}, func(i int) string { return greet(d) }) // @ref Map>Map @ref greet>greet
	fmt.Println(names)
}
