package glfuzz

import (
	"sort"

	"github.com/retrogl/retrogl/gles"
	"github.com/retrogl/retrogl/trace"
)

// APIVersion says which context type an entry point belongs to.
type APIVersion uint8

// The API versions of an entry point.
const (
	APIBoth APIVersion = iota // both ES 1.1 and ES 2.0
	API1                      // fixed function: ES 1.1 only
	API2                      // shaders and framebuffer objects: ES 2.0 only
)

// Method is one GL entry point.
type Method struct {
	// Recv is "" for methods of *gles.Context, "PicaShaders" for the
	// GL_RETRO_pica_shader_binary entry points.
	Recv string
	Name string
	API  APIVersion
	// Results is the number of results.
	Results int
	Params  []Param
}

// Param is one parameter: its name and its type as package gles spells
// it ("Enum", "int", "...uint32", "any").
type Param struct {
	Name string
	Type string
}

var (
	methodIndex = map[string]*Method{}
	enumByName  = map[string]gles.Enum{}
	enumByValue = map[gles.Enum]string{}
	enumValues  []gles.Enum
)

func init() {
	for i := range api {
		m := &api[i]
		methodIndex[m.key()] = m
	}
	for _, e := range trace.Enums() {
		enumByName[e.Name] = e.Value
		if _, dup := enumByValue[e.Value]; !dup {
			enumByValue[e.Value] = e.Name
			enumValues = append(enumValues, e.Value)
		}
	}
	sort.Slice(enumValues, func(i, j int) bool { return enumValues[i] < enumValues[j] })
}

func (m *Method) key() string {
	if m.Recv != "" {
		return m.Recv + "." + m.Name
	}
	return m.Name
}

// Methods returns the entry points the fuzzer calls, sorted by name.
func Methods() []Method { return append([]Method(nil), api...) }

// lookup returns the entry point recv.name.
func lookup(recv, name string) (*Method, bool) {
	if recv != "" {
		name = recv + "." + name
	}
	m, ok := methodIndex[name]
	return m, ok
}
