package lower

// UniformValues builds the values of every uniform constant of the
// programs from the GL uniform values: get returns the float value of a
// location (ints, bools and samplers converted), nil when unset.
func (r *Result) UniformValues(get func(loc int) []float32) map[string][4]float32 {
	out := make(map[string][4]float32, len(r.Uniforms))
	for name, ref := range r.Uniforms {
		var v [4]float32
		vals := get(ref.Location)
		for c := 0; c < ref.Count && c < 4; c++ {
			if i := ref.First + c; i < len(vals) {
				v[c] = vals[i]
			}
		}
		out[name] = v
	}
	return out
}
