package driver

import (
	"encoding/binary"
	"math"
)

// Fetch reads vertex i of array a as floats, applying the GL ES 1.1
// conversion rules: FIXED is 16.16, normalised arrays (colours, normals,
// weights) map unsigned integers to [0, 1] and signed ones to [-1, 1]
// (table 2.7), other integers are taken as they are. Missing
// components take def's values. It returns the number of components read.
func (a *Attrib) Fetch(i int, def [4]float32, out *[4]float32) int {
	*out = def
	if !a.Enabled {
		return 0
	}
	b := a.Data[i*a.Stride:]
	sz := a.Type.Size()
	for k := 0; k < a.Size; k++ {
		c := b[k*sz:]
		var v float32
		switch a.Type {
		case TypeByte:
			v = float32(int8(c[0]))
			if a.Normalized {
				// GL ES 1.1 table 2.7: (2c+1)/(2^8-1).
				v = (2*v + 1) / 255
			}
		case TypeUByte:
			v = float32(c[0])
			if a.Normalized {
				v /= 255
			}
		case TypeShort:
			v = float32(int16(binary.LittleEndian.Uint16(c)))
			if a.Normalized {
				v = (2*v + 1) / 65535
			}
		case TypeUShort:
			v = float32(binary.LittleEndian.Uint16(c))
			if a.Normalized {
				v /= 65535
			}
		case TypeFixed:
			v = float32(int32(binary.LittleEndian.Uint32(c))) / 65536
		case TypeFloat:
			v = math.Float32frombits(binary.LittleEndian.Uint32(c))
		}
		out[k] = v
	}
	return a.Size
}

// VertexIndex returns the vertex number of the i-th vertex of a draw.
func (dc *DrawCall) VertexIndex(i int) int {
	if dc.Indices != nil {
		return dc.Indices.Index(i)
	}
	return dc.First + i
}
