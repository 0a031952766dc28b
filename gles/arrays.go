package gles

import (
	"fmt"
	"unsafe"

	"github.com/retrogl/retrogl/driver"
	"github.com/retrogl/retrogl/internal/checked"
)

// The fixed-function client arrays.
const (
	arrVertex = iota
	arrColor
	arrNormal
	arrPointSize
	arrWeight
	arrMatrixIndex
	arrTexCoord0
	numArrays = arrTexCoord0 + driver.MaxTextureUnits
)

var arrayNames = [...]string{"vertex", "color", "normal", "point size", "weight", "matrix index"}

func arrayName(a int) string {
	if a >= arrTexCoord0 {
		return fmt.Sprintf("texcoord%d", a-arrTexCoord0)
	}
	return arrayNames[a]
}

type arrayState struct {
	enabled    bool
	normalized bool
	size       int
	typ        Enum
	stride     int // as given; 0 means tightly packed
	buffer     *bufferObject
	offset     int
	client     []byte
}

type bufferObject struct {
	id    uint32
	data  []byte
	usage Enum
	gen   uint64
}

// clientArray maps a client-state enum to an array index.
func (c *Context) clientArray(e Enum) (int, bool) {
	switch e {
	case VERTEX_ARRAY:
		return arrVertex, true
	case COLOR_ARRAY:
		return arrColor, true
	case NORMAL_ARRAY:
		return arrNormal, true
	case TEXTURE_COORD_ARRAY:
		return arrTexCoord0 + c.clientActiveTex, true
	case POINT_SIZE_ARRAY_OES:
		return arrPointSize, c.caps.HasExtension("GL_OES_point_size_array")
	case WEIGHT_ARRAY_OES:
		return arrWeight, c.caps.HasExtension("GL_OES_matrix_palette")
	case MATRIX_INDEX_ARRAY_OES:
		return arrMatrixIndex, c.caps.HasExtension("GL_OES_matrix_palette")
	}
	return 0, false
}

// EnableClientState enables a client array.
func (c *Context) EnableClientState(array Enum) { c.setClientState("EnableClientState", array, true) }

// DisableClientState disables a client array.
func (c *Context) DisableClientState(array Enum) {
	c.setClientState("DisableClientState", array, false)
}

func (c *Context) setClientState(fn string, array Enum, on bool) {
	if !c.need1(fn) {
		return
	}
	a, ok := c.clientArray(array)
	if !ok {
		c.record(fn, INVALID_ENUM, "array %#x", array)
		return
	}
	c.arrays[a].enabled = on
}

// ClientActiveTexture selects the texture unit TexCoordPointer and
// TEXTURE_COORD_ARRAY refer to.
func (c *Context) ClientActiveTexture(texture Enum) {
	if !c.need1("ClientActiveTexture") {
		return
	}
	u := int(texture) - int(TEXTURE0)
	if u < 0 || u >= c.caps.Limits.MaxTextureUnits {
		c.record("ClientActiveTexture", INVALID_ENUM, "texture %#x (units: %d)", texture, c.caps.Limits.MaxTextureUnits)
		return
	}
	c.clientActiveTex = u
}

// genNames reserves n unused, non-zero names in m (as nil entries, so an
// object is created on first bind) and returns them; next remembers where
// the search continues. It records INVALID_VALUE for a negative n and
// OUT_OF_MEMORY, reserving nothing, when n names do not fit the memory
// budget (each costs objectCost) or the 32-bit name space.
func genNames[T any](c *Context, fn string, m map[uint32]*T, next *uint32, n int) []uint32 {
	if n < 0 {
		c.record(fn, INVALID_VALUE, "n = %d", n)
		return nil
	}
	if n > 1<<32-1-len(m) {
		c.record(fn, OUT_OF_MEMORY, "%d names: %d of the %d names are in use", n, len(m), uint32(1<<32-1))
		return nil
	}
	if !c.fits(fn, objectsCost(n), fmt.Sprintf("%d names", n)) {
		return nil
	}
	c.charge(objectsCost(n))
	out := make([]uint32, n)
	for i := range out {
		for {
			*next++
			if _, used := m[*next]; !used && *next != 0 {
				break
			}
		}
		out[i] = *next
		m[*next] = nil
	}
	return out
}

// GenBuffers returns n new buffer names.
func (c *Context) GenBuffers(n int) []uint32 {
	if !c.alive("GenBuffers") {
		return nil
	}
	return genNames(c, "GenBuffers", c.buffers, &c.nextBuffer, n)
}

// DeleteBuffers deletes buffer objects; bindings to them revert to 0.
func (c *Context) DeleteBuffers(buffers ...uint32) {
	if !c.alive("DeleteBuffers") {
		return
	}
	for _, id := range buffers {
		if id == 0 {
			continue
		}
		b, ok := c.buffers[id]
		if !ok {
			continue
		}
		if c.arrayBuffer == id {
			c.arrayBuffer = 0
		}
		if c.elementBuffer == id {
			c.elementBuffer = 0
		}
		for i := range c.arrays {
			if b != nil && c.arrays[i].buffer == b {
				c.arrays[i].buffer = nil
				c.arrays[i].offset = 0
			}
		}
		for i := range c.gl2.attribs {
			if b != nil && c.gl2.attribs[i].buffer == b {
				c.gl2.attribs[i].buffer = nil
				c.gl2.attribs[i].offset = 0
			}
		}
		c.charge(-objectCost)
		if b != nil {
			c.charge(-int64(len(b.data)))
		}
		delete(c.buffers, id)
		c.dc.ReleaseBuffer(id)
	}
}

// IsBuffer reports whether id names a buffer object.
func (c *Context) IsBuffer(id uint32) bool {
	if !c.alive("IsBuffer") {
		return false
	}
	b, ok := c.buffers[id]
	return ok && b != nil
}

// BindBuffer binds a buffer object to ARRAY_BUFFER or ELEMENT_ARRAY_BUFFER,
// creating it on first bind.
func (c *Context) BindBuffer(target Enum, id uint32) {
	const fn = "BindBuffer"
	if !c.alive(fn) {
		return
	}
	if target != ARRAY_BUFFER && target != ELEMENT_ARRAY_BUFFER {
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return
	}
	if id != 0 {
		// Binding an unused name creates the buffer (ES 1.1 section 2.9).
		b, reserved := c.buffers[id]
		if !reserved {
			if !c.fits(fn, objectCost, "a new buffer object") {
				return
			}
			c.charge(objectCost)
		}
		if b == nil {
			c.buffers[id] = &bufferObject{id: id, usage: STATIC_DRAW}
		}
	}
	if target == ARRAY_BUFFER {
		c.arrayBuffer = id
	} else {
		c.elementBuffer = id
	}
}

func (c *Context) boundBuffer(fn string, target Enum) *bufferObject {
	var id uint32
	switch target {
	case ARRAY_BUFFER:
		id = c.arrayBuffer
	case ELEMENT_ARRAY_BUFFER:
		id = c.elementBuffer
	default:
		c.record(fn, INVALID_ENUM, "target %#x", target)
		return nil
	}
	if id == 0 {
		c.record(fn, INVALID_OPERATION, "no buffer bound to %#x", target)
		return nil
	}
	return c.buffers[id]
}

// BufferData creates the data store of the bound buffer. data is a slice of
// numbers (copied) or an int size for an uninitialised store.
func (c *Context) BufferData(target Enum, data any, usage Enum) {
	const fn = "BufferData"
	if !c.alive(fn) {
		return
	}
	switch usage {
	case STATIC_DRAW, DYNAMIC_DRAW:
	case STREAM_DRAW:
		if !c.caps.ES2 {
			c.record(fn, INVALID_ENUM, "usage STREAM_DRAW needs ES 2.0")
			return
		}
	default:
		c.record(fn, INVALID_ENUM, "usage %#x", usage)
		return
	}
	b := c.boundBuffer(fn, target)
	if b == nil {
		return
	}
	var store []byte
	if n, ok := asInt(data); ok {
		if n < 0 {
			c.record(fn, INVALID_VALUE, "size %d", n)
			return
		}
		if !c.fits(fn, int64(n)-int64(len(b.data)), fmt.Sprintf("a %d-byte store", n)) {
			return
		}
		store = make([]byte, n)
	} else {
		p, ok := bytesOf(data)
		if !ok {
			c.record(fn, INVALID_VALUE, "data of type %T", data)
			return
		}
		if !c.fits(fn, int64(len(p))-int64(len(b.data)), fmt.Sprintf("a %d-byte store", len(p))) {
			return
		}
		store = append([]byte(nil), p...)
	}
	c.charge(int64(len(store)) - int64(len(b.data)))
	b.data, b.usage = store, usage
	b.gen++
}

// BufferSubData replaces part of the bound buffer's store.
func (c *Context) BufferSubData(target Enum, offset int, data any) {
	const fn = "BufferSubData"
	if !c.alive(fn) {
		return
	}
	b := c.boundBuffer(fn, target)
	if b == nil {
		return
	}
	p, ok := bytesOf(data)
	if !ok {
		c.record(fn, INVALID_VALUE, "data of type %T", data)
		return
	}
	if !checked.InRange(offset, len(p), len(b.data)) {
		c.record(fn, INVALID_VALUE, "range %d+%d outside the %d-byte store", offset, len(p), len(b.data))
		return
	}
	copy(b.data[offset:], p)
	b.gen++
}

// GetBufferParameteriv returns BUFFER_SIZE or BUFFER_USAGE of the bound
// buffer.
func (c *Context) GetBufferParameteriv(target Enum, pname Enum) int {
	const fn = "GetBufferParameteriv"
	if !c.alive(fn) {
		return 0
	}
	b := c.boundBuffer(fn, target)
	if b == nil {
		return 0
	}
	switch pname {
	case BUFFER_SIZE:
		return len(b.data)
	case BUFFER_USAGE:
		return int(b.usage)
	}
	c.record(fn, INVALID_ENUM, "pname %#x", pname)
	return 0
}

// asInt accepts Go integer types used as offsets and sizes.
func asInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int32:
		return int(x), true
	case int64:
		if x > 1<<40 || x < -1<<40 {
			return -1, true
		}
		return int(x), true
	case uint32:
		return int(x), true
	case uintptr:
		if x > 1<<40 {
			return -1, true
		}
		return int(x), true
	}
	return 0, false
}

// bytesOf returns the bytes of a slice of numbers without copying, so that
// client arrays are read at draw time as GL requires.
func bytesOf(v any) ([]byte, bool) { return ClientBytes(v) }

// ClientBytes returns the bytes of a slice of numbers ([]byte, []int8,
// []int16, []uint16, []int32, []uint32, []float32; nil) without copying:
// the memory gles reads for a client array, texture or buffer argument.
// The second result is false for any other type.
func ClientBytes(v any) ([]byte, bool) {
	switch s := v.(type) {
	case []byte:
		return s, true
	case []int8:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)), true
	case []int16:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s)), true
	case []uint16:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s)), true
	case []int32:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s)), true
	case []uint32:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s)), true
	case []float32:
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 4*len(s)), true
	case nil:
		return nil, true
	}
	return nil, false
}

// pointer implements the gl*Pointer calls. ptr is a slice of numbers for a
// client array, or an int byte offset when a buffer is bound to
// ARRAY_BUFFER.
func (c *Context) pointer(fn string, a int, size int, typ Enum, stride int, ptr any, sizes []int, types ...Enum) {
	if !c.need1(fn) {
		return
	}
	c.pointerInto(fn, &c.arrays[a], size, typ, stride, ptr, sizes, types...)
	// GL ES 1.1 section 2.8: integer colours, normals and weights map to
	// [0, 1] or [-1, 1] by table 2.7; positions, texture coordinates and
	// matrix indices are taken as they are.
	c.arrays[a].normalized = a == arrColor || a == arrNormal || a == arrWeight
}

// pointerInto validates a pointer call and stores it in as.
func (c *Context) pointerInto(fn string, as *arrayState, size int, typ Enum, stride int, ptr any, sizes []int, types ...Enum) {
	okSize := false
	for _, s := range sizes {
		okSize = okSize || s == size
	}
	if !okSize {
		c.record(fn, INVALID_VALUE, "size %d (allowed %v)", size, sizes)
		return
	}
	okType := false
	for _, t := range types {
		okType = okType || t == typ
	}
	if !okType {
		c.record(fn, INVALID_ENUM, "type %#x", typ)
		return
	}
	if stride < 0 {
		c.record(fn, INVALID_VALUE, "negative stride %d", stride)
		return
	}
	if c.arrayBuffer != 0 {
		off, ok := asInt(ptr)
		if !ok {
			if p, isSlice := bytesOf(ptr); isSlice && p == nil {
				off, ok = 0, true
			}
		}
		if !ok || off < 0 {
			c.record(fn, INVALID_VALUE, "with ARRAY_BUFFER bound the pointer must be a non-negative byte offset, got %T", ptr)
			return
		}
		*as = arrayState{enabled: as.enabled, size: size, typ: typ, stride: stride, buffer: c.buffers[c.arrayBuffer], offset: off}
		return
	}
	p, ok := bytesOf(ptr)
	if !ok {
		if n, isInt := asInt(ptr); isInt && n == 0 {
			p, ok = nil, true
		}
	}
	if !ok {
		c.record(fn, INVALID_VALUE, "client array of type %T (want a slice of numbers)", ptr)
		return
	}
	*as = arrayState{enabled: as.enabled, size: size, typ: typ, stride: stride, client: p}
}

// VertexPointer sets the vertex position array.
func (c *Context) VertexPointer(size int, typ Enum, stride int, ptr any) {
	c.pointer("VertexPointer", arrVertex, size, typ, stride, ptr, []int{2, 3, 4}, BYTE, SHORT, FIXED, FLOAT)
}

// ColorPointer sets the colour array.
func (c *Context) ColorPointer(size int, typ Enum, stride int, ptr any) {
	c.pointer("ColorPointer", arrColor, size, typ, stride, ptr, []int{4}, UNSIGNED_BYTE, FIXED, FLOAT)
}

// NormalPointer sets the normal array.
func (c *Context) NormalPointer(typ Enum, stride int, ptr any) {
	c.pointer("NormalPointer", arrNormal, 3, typ, stride, ptr, []int{3}, BYTE, SHORT, FIXED, FLOAT)
}

// TexCoordPointer sets the texture coordinate array of the client-active
// unit.
func (c *Context) TexCoordPointer(size int, typ Enum, stride int, ptr any) {
	c.pointer("TexCoordPointer", arrTexCoord0+c.clientActiveTex, size, typ, stride, ptr, []int{2, 3, 4}, BYTE, SHORT, FIXED, FLOAT)
}

// PointSizePointerOES sets the point size array (OES_point_size_array).
func (c *Context) PointSizePointerOES(typ Enum, stride int, ptr any) {
	if !c.caps.HasExtension("GL_OES_point_size_array") {
		c.record("PointSizePointerOES", INVALID_OPERATION, "GL_OES_point_size_array is not supported by %s", c.caps.Name)
		return
	}
	c.pointer("PointSizePointerOES", arrPointSize, 1, typ, stride, ptr, []int{1}, FIXED, FLOAT)
}

// WeightPointerOES sets the vertex-unit weight array (OES_matrix_palette).
func (c *Context) WeightPointerOES(size int, typ Enum, stride int, ptr any) {
	if !c.caps.HasExtension("GL_OES_matrix_palette") {
		c.record("WeightPointerOES", INVALID_OPERATION, "GL_OES_matrix_palette is not supported by %s", c.caps.Name)
		return
	}
	var sizes []int
	for s := 1; s <= c.caps.Limits.MaxVertexUnits; s++ {
		sizes = append(sizes, s)
	}
	c.pointer("WeightPointerOES", arrWeight, size, typ, stride, ptr, sizes, FIXED, FLOAT)
}

// MatrixIndexPointerOES sets the palette matrix index array
// (OES_matrix_palette).
func (c *Context) MatrixIndexPointerOES(size int, typ Enum, stride int, ptr any) {
	if !c.caps.HasExtension("GL_OES_matrix_palette") {
		c.record("MatrixIndexPointerOES", INVALID_OPERATION, "GL_OES_matrix_palette is not supported by %s", c.caps.Name)
		return
	}
	var sizes []int
	for s := 1; s <= c.caps.Limits.MaxVertexUnits; s++ {
		sizes = append(sizes, s)
	}
	c.pointer("MatrixIndexPointerOES", arrMatrixIndex, size, typ, stride, ptr, sizes, UNSIGNED_BYTE)
}

// Color4f sets the current colour.
func (c *Context) Color4f(r, g, b, a float32) {
	if !c.need1("Color4f") {
		return
	}
	c.st.CurrentColor = [4]float32{r, g, b, a}
}

// Color4ub sets the current colour from bytes.
func (c *Context) Color4ub(r, g, b, a uint8) {
	c.Color4f(float32(r)/255, float32(g)/255, float32(b)/255, float32(a)/255)
}

// Normal3f sets the current normal.
func (c *Context) Normal3f(x, y, z float32) {
	if !c.need1("Normal3f") {
		return
	}
	c.st.CurrentNormal = [3]float32{x, y, z}
}

// MultiTexCoord4f sets the current texture coordinates of a unit.
func (c *Context) MultiTexCoord4f(target Enum, s, t, r, q float32) {
	if !c.need1("MultiTexCoord4f") {
		return
	}
	u := int(target) - int(TEXTURE0)
	if u < 0 || u >= c.caps.Limits.MaxTextureUnits {
		c.record("MultiTexCoord4f", INVALID_ENUM, "target %#x", target)
		return
	}
	c.st.CurrentTexCoord[u] = [4]float32{s, t, r, q}
}

func attribType(t Enum) driver.AttribType {
	switch t {
	case BYTE:
		return driver.TypeByte
	case UNSIGNED_BYTE:
		return driver.TypeUByte
	case SHORT:
		return driver.TypeShort
	case UNSIGNED_SHORT:
		return driver.TypeUShort
	case FIXED:
		return driver.TypeFixed
	}
	return driver.TypeFloat
}

// resolveArray builds the driver view of fixed-function array a.
func (c *Context) resolveArray(fn string, a int, maxIndex int, out *driver.Attrib) bool {
	return c.resolveInto(fn, &c.arrays[a], arrayName(a)+" array", maxIndex, out)
}

// resolveInto builds the driver view of an array for vertices
// 0..maxIndex, checking that the memory covers them.
func (c *Context) resolveInto(fn string, as *arrayState, name string, maxIndex int, out *driver.Attrib) bool {
	*out = driver.Attrib{}
	if !as.enabled {
		return true
	}
	t := attribType(as.typ)
	elem := as.size * t.Size()
	stride := as.stride
	if stride == 0 {
		stride = elem
	}
	var data []byte
	var id uint32
	var gen uint64
	if as.buffer != nil {
		if as.offset > len(as.buffer.data) {
			c.record(fn, INVALID_OPERATION, "%s offset %d beyond the %d-byte buffer %d", name, as.offset, len(as.buffer.data), as.buffer.id)
			return false
		}
		data = as.buffer.data[as.offset:]
		id, gen = as.buffer.id, as.buffer.gen
	} else {
		data = as.client
	}
	if need, ok := checked.MulAdd(maxIndex, stride, elem); !ok || len(data) < need {
		c.record(fn, INVALID_OPERATION, "%s holds %d bytes, vertex %d needs %d*%d+%d", name, len(data), maxIndex, maxIndex, stride, elem)
		return false
	}
	*out = driver.Attrib{Enabled: true, Size: as.size, Type: t, Normalized: as.normalized,
		Stride: stride, Data: data, Buffer: id, BufferGen: gen, Offset: as.offset}
	return true
}

func primitive(mode Enum) (driver.Prim, bool) {
	if mode <= TRIANGLE_FAN {
		return driver.Prim(mode), true
	}
	return 0, false
}

// DrawArrays draws count vertices starting at first.
func (c *Context) DrawArrays(mode Enum, first, count int) {
	const fn = "DrawArrays"
	if !c.alive(fn) {
		return
	}
	prim, ok := primitive(mode)
	if !ok {
		c.record(fn, INVALID_ENUM, "mode %#x", mode)
		return
	}
	if first < 0 || count < 0 {
		c.record(fn, INVALID_VALUE, "first %d, count %d", first, count)
		return
	}
	if _, ok := checked.Add(first, count); !ok {
		c.record(fn, INVALID_VALUE, "first %d + count %d overflows", first, count)
		return
	}
	if count == 0 || (!c.api2 && !c.arrays[arrVertex].enabled) {
		return
	}
	if !c.drawFits(fn, count) {
		return
	}
	dc := &driver.DrawCall{Prim: prim, First: first, Count: count, MinIndex: first, MaxIndex: first + count - 1}
	c.draw(fn, dc)
}

// DrawElements draws count indexed vertices. indices is a []uint8 or
// []uint16 for client memory, or an int byte offset into the buffer bound to
// ELEMENT_ARRAY_BUFFER.
func (c *Context) DrawElements(mode Enum, count int, typ Enum, indices any) {
	const fn = "DrawElements"
	if !c.alive(fn) {
		return
	}
	prim, ok := primitive(mode)
	if !ok {
		c.record(fn, INVALID_ENUM, "mode %#x", mode)
		return
	}
	var it driver.IndexType
	size := 1
	switch typ {
	case UNSIGNED_BYTE:
		it = driver.IndexUByte
	case UNSIGNED_SHORT:
		it, size = driver.IndexUShort, 2
	default:
		c.record(fn, INVALID_ENUM, "type %#x", typ)
		return
	}
	if count < 0 {
		c.record(fn, INVALID_VALUE, "count %d", count)
		return
	}
	if count == 0 || (!c.api2 && !c.arrays[arrVertex].enabled) {
		return
	}
	if !c.drawFits(fn, count) {
		return
	}
	n := count * size // no overflow: drawFits bounds count
	ix := &driver.Indices{Type: it}
	if c.elementBuffer != 0 {
		off, ok := asInt(indices)
		if !ok {
			if p, isSlice := bytesOf(indices); isSlice && p == nil {
				off, ok = 0, true
			}
		}
		b := c.buffers[c.elementBuffer]
		if !ok || !checked.InRange(off, n, len(b.data)) {
			c.record(fn, INVALID_OPERATION, "indices %v (%T) outside the %d-byte element buffer %d", indices, indices, len(b.data), b.id)
			return
		}
		ix.Data, ix.Buffer, ix.BufferGen, ix.Offset = b.data[off:off+n], b.id, b.gen, off
	} else {
		var p []byte
		switch s := indices.(type) {
		case []uint8:
			if size != 1 {
				c.record(fn, INVALID_OPERATION, "type UNSIGNED_SHORT with []uint8 indices")
				return
			}
			p = s
		case []uint16:
			if size != 2 {
				c.record(fn, INVALID_OPERATION, "type UNSIGNED_BYTE with []uint16 indices")
				return
			}
			p, _ = bytesOf(s)
		default:
			c.record(fn, INVALID_VALUE, "client indices of type %T (want []uint8 or []uint16)", indices)
			return
		}
		if len(p) < n {
			c.record(fn, INVALID_VALUE, "%d indices given, count is %d", len(p)/size, count)
			return
		}
		ix.Data = p[:n]
	}
	minI, maxI := 1<<30, -1
	for i := 0; i < count; i++ {
		v := ix.Index(i)
		minI, maxI = min(minI, v), max(maxI, v)
	}
	if !c.drawFits(fn, maxI-minI+1) {
		return
	}
	dc := &driver.DrawCall{Prim: prim, Count: count, Indices: ix, MinIndex: minI, MaxIndex: maxI}
	c.draw(fn, dc)
}

// maxDrawVertices returns how many vertices one draw may use (its index
// count, and the range of vertices it reads): the budget over 512 bytes,
// and at least 65536 (MAX_ELEMENTS_VERTICES of most backends), so that
// the memory a draw makes the driver hold while it transforms and packs
// vertices (up to about 2 KiB each, measured over the five backends with
// lighting and three arrays) stays in proportion to the budget. Larger
// draws record OUT_OF_MEMORY; an application splits them.
func (c *Context) maxDrawVertices() int {
	if c.memBudget < 0 {
		return 1 << 40
	}
	return int(max(1<<16, c.memBudget/512))
}

// drawFits reports whether a draw of n vertices fits maxDrawVertices,
// recording OUT_OF_MEMORY when not.
func (c *Context) drawFits(fn string, n int) bool {
	if m := c.maxDrawVertices(); n > m {
		c.record(fn, OUT_OF_MEMORY, "%d vertices in one draw; at most %d with a %d-byte budget (gles.Config.MemoryBudget)", n, m, c.memBudget)
		return false
	}
	return true
}

// draw resolves arrays and textures, checks the backend has every feature
// the state uses, and hands the draw to the backend.
func (c *Context) draw(fn string, dc *driver.DrawCall) {
	var va driver.VertexArrays
	maxI := dc.MaxIndex
	if c.api2 {
		if !c.resolveProgram(fn, dc, &va) || !c.resolveFramebuffer(fn) {
			return
		}
		dc.Arrays = &va
		if f, ok := c.missingFeature(dc); !ok {
			c.recordErr(fn, &driver.Unsupported{Backend: c.caps.Name, Feature: f, Why: c.caps.WhyMissing(f)})
			return
		}
		if err := c.dc.Draw(&c.st, dc); err != nil {
			c.recordErr(fn, err)
		}
		return
	}
	if dc.DrawTexture == nil {
		if !c.resolveArray(fn, arrVertex, maxI, &va.Position) ||
			!c.resolveArray(fn, arrColor, maxI, &va.Color) ||
			!c.resolveArray(fn, arrNormal, maxI, &va.Normal) {
			return
		}
		if c.caps.HasExtension("GL_OES_point_size_array") && !c.resolveArray(fn, arrPointSize, maxI, &va.PointSize) {
			return
		}
		if c.st.MatrixPalette.Enabled {
			if !c.resolveArray(fn, arrWeight, maxI, &va.Weight) || !c.resolveArray(fn, arrMatrixIndex, maxI, &va.MatrixIndex) {
				return
			}
		}
		for u := 0; u < c.caps.Limits.MaxTextureUnits && u < driver.MaxTextureUnits; u++ {
			if !c.resolveArray(fn, arrTexCoord0+u, maxI, &va.TexCoord[u]) {
				return
			}
		}
	}
	dc.Arrays = &va
	c.resolveTextures()
	c.st.Point.SizeArrayActive = va.PointSize.Enabled
	if f, ok := c.missingFeature(dc); !ok {
		c.recordErr(fn, &driver.Unsupported{Backend: c.caps.Name, Feature: f, Why: c.caps.WhyMissing(f)})
		return
	}
	if err := c.dc.Draw(&c.st, dc); err != nil {
		c.recordErr(fn, err)
	}
}

// missingFeature returns the first feature the draw needs that the backend
// lacks.
func (c *Context) missingFeature(dc *driver.DrawCall) (driver.Feature, bool) {
	st := &c.st
	need := func(f driver.Feature, used bool) bool { return !used || c.caps.Has(f) }
	if c.api2 {
		for _, ch := range []struct {
			f    driver.Feature
			used bool
		}{
			{driver.FeatureShaders, true},
			{driver.FeaturePoints, dc.Prim == driver.PrimPoints},
			{driver.FeatureLines, dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip},
			{driver.FeatureLineWidth, dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip && st.LineWidth != 1},
			{driver.FeatureStencil, st.StencilTest && c.cfg.StencilBits > 0},
			{driver.FeatureBlend, st.Blend.Enabled},
			{driver.FeatureColorMask, st.ColorMask != [4]bool{true, true, true, true}},
			{driver.FeaturePolygonOffset, st.PolygonOffset.Fill && (st.PolygonOffset.Factor != 0 || st.PolygonOffset.Units != 0)},
		} {
			if !need(ch.f, ch.used) {
				return ch.f, false
			}
		}
		return 0, true
	}
	checks := []struct {
		f    driver.Feature
		used bool
	}{
		{driver.FeaturePoints, dc.Prim == driver.PrimPoints && dc.DrawTexture == nil},
		{driver.FeatureLines, dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip && dc.DrawTexture == nil},
		{driver.FeatureTexture2D, st.AnyTexture()},
		{driver.FeatureLighting, st.Lighting.Enabled},
		{driver.FeatureFog, st.Fog.Enabled},
		{driver.FeatureAlphaTest, st.AlphaTest.Enabled && st.AlphaTest.Func != driver.CompareAlways},
		{driver.FeatureStencil, st.StencilTest && c.cfg.StencilBits > 0},
		{driver.FeatureBlend, st.Blend.Enabled},
		{driver.FeatureLogicOp, st.LogicOpEnabled},
		{driver.FeatureColorMask, st.ColorMask != [4]bool{true, true, true, true}},
		{driver.FeaturePolygonOffset, st.PolygonOffset.Fill && (st.PolygonOffset.Factor != 0 || st.PolygonOffset.Units != 0)},
		{driver.FeaturePointSize, dc.Prim == driver.PrimPoints && (st.Point.Size != 1 || st.Point.SizeArrayActive || st.Point.DistAtten != [3]float32{1, 0, 0})},
		{driver.FeatureLineWidth, dc.Prim >= driver.PrimLines && dc.Prim <= driver.PrimLineStrip && st.LineWidth != 1},
		{driver.FeaturePointSprite, dc.Prim == driver.PrimPoints && st.Point.Sprite},
		{driver.FeaturePointSizeArray, dc.Prim == driver.PrimPoints && st.Point.SizeArrayActive},
		{driver.FeatureMatrixPalette, st.MatrixPalette.Enabled},
		{driver.FeatureDrawTexture, dc.DrawTexture != nil},
	}
	for _, ch := range checks {
		if !need(ch.f, ch.used) {
			return ch.f, false
		}
	}
	for u := range st.Units {
		if st.Units[u].Texture == nil {
			continue
		}
		if u > 0 && !c.caps.Has(driver.FeatureMultitexture) {
			return driver.FeatureMultitexture, false
		}
		if st.Units[u].Env.Mode == driver.EnvCombine && !c.caps.Has(driver.FeatureTexEnvCombine) {
			return driver.FeatureTexEnvCombine, false
		}
		if (st.Units[u].Texture.Format == driver.TexPalette4 || st.Units[u].Texture.Format == driver.TexPalette8) &&
			!c.caps.Has(driver.FeaturePalettedTextures) {
			return driver.FeaturePalettedTextures, false
		}
	}
	for _, p := range st.ClipPlanes {
		if p.Enabled && !c.caps.Has(driver.FeatureClipPlanes) {
			return driver.FeatureClipPlanes, false
		}
	}
	return 0, true
}
