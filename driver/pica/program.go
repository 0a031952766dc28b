package pica

import (
	"fmt"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/hal/pica/picasso"
)

// program is a vertex shader ready to upload: code, descriptors, the
// output-map register values and the constants of its DVLE.
type program struct {
	name    string
	source  string
	code    []uint32
	descs   []uint32
	entry   uint32
	outMask uint32
	outmap  []uint32 // SH_OUTMAP_Ok values
	clock   uint32
	useTex  bool
	consts  []p.ShaderConst
	// glsl is the GLSL shader a program was compiled from (glslvs.go).
	glsl *glslVS
}

// outSemantic gives the output-map semantic of component c of an output
// type ([OUT] libctru shaderProgramUse; L1013-L1063).
func outSemantic(typ uint16, c int) (uint32, bool) {
	switch typ {
	case 0:
		return uint32(p.SemPosX + c), true
	case 1:
		return uint32(p.SemQuatX + c), true
	case 2:
		return uint32(p.SemColorR + c), true
	case 3:
		if c < 2 {
			return uint32(p.SemTex0U + c), true
		}
	case 4:
		if c == 0 {
			return p.SemTex0W, true
		}
	case 5:
		if c < 2 {
			return uint32(p.SemTex1U + c), true
		}
	case 6:
		if c < 2 {
			return uint32(p.SemTex2U + c), true
		}
	case 8:
		if c < 3 {
			return uint32(p.SemViewX + c), true
		}
	}
	return 0, false
}

// newProgram prepares a program from a shader binary's first executable.
func newProgram(name string, sb *p.ShaderBinary) (*program, error) {
	if len(sb.Executables) == 0 {
		return nil, fmt.Errorf("shader %s: no executable", name)
	}
	x := sb.Executables[0]
	if x.Geometry {
		return nil, fmt.Errorf("shader %s: geometry shaders are not supported", name)
	}
	if len(sb.Code) > 512 {
		return nil, fmt.Errorf("shader %s: %d instructions (the PICA200's code memory holds 512)", name, len(sb.Code))
	}
	pr := &program{name: name, code: sb.Code, descs: sb.Opdescs, entry: x.Main, consts: x.Consts}
	var sem [16][4]uint32
	for r := range sem {
		sem[r] = [4]uint32{p.SemUnused, p.SemUnused, p.SemUnused, p.SemUnused}
	}
	for _, o := range x.Outputs {
		if o.Reg > 15 {
			return nil, fmt.Errorf("shader %s: output register o%d", name, o.Reg)
		}
		pr.outMask |= 1 << o.Reg
		for c := 0; c < 4; c++ {
			if o.Mask>>uint(c)&1 == 0 {
				continue
			}
			if s, ok := outSemantic(o.Type, c); ok {
				sem[o.Reg][c] = s
			}
		}
		switch o.Type {
		case 0:
			pr.clock |= 1 // pos.z
		case 2:
			pr.clock |= 2
		case 3:
			pr.clock |= 1 << 8
			pr.useTex = true
		case 4:
			pr.clock |= 1 << 16
			pr.useTex = true
		case 5:
			pr.clock |= 1 << 9
			pr.useTex = true
		case 6:
			pr.clock |= 1 << 10
			pr.useTex = true
		case 1, 8:
			pr.clock |= 1 << 24
		}
	}
	for r := 0; r < 16; r++ {
		if pr.outMask>>uint(r)&1 != 0 {
			s := sem[r]
			pr.outmap = append(pr.outmap, s[0]|s[1]<<8|s[2]<<16|s[3]<<24)
		}
	}
	if len(pr.outmap) > 7 {
		return nil, fmt.Errorf("shader %s: %d outputs reach the rasteriser (at most 7)", name, len(pr.outmap))
	}
	return pr, nil
}

// assemble builds a program from picasso source.
func assemble(name, src string) (*program, error) {
	sb, err := picasso.Assemble(src)
	if err != nil {
		return nil, fmt.Errorf("generated shader %s: %w", name, err)
	}
	pr, err := newProgram(name, sb)
	if err != nil {
		return nil, err
	}
	pr.source = src
	return pr, nil
}

// useProgram uploads pr (code, descriptors, constants, output map) unless
// it is already loaded, and configures nIn vertex inputs.
func (c *Context) useProgram(pr *program, nIn int) {
	if c.curProg != pr {
		if c.Log != nil && pr.source != "" {
			c.Log(pr.name, pr.source)
		}
		c.curProg = pr
		c.kick(p.VSH_OPDESCS_INDEX, 0)
		c.cmd.Rep(p.VSH_OPDESCS_DATA0, pr.descs...)
		c.kick(p.VSH_CODETRANSFER_INDEX, 0)
		c.cmd.Rep(p.VSH_CODETRANSFER_DATA0, pr.code...)
		c.kick(p.VSH_CODETRANSFER_END, 1)
		c.set(p.VSH_ENTRYPOINT, 0x7FFF0000|pr.entry)
		for _, k := range pr.consts {
			switch k.Type {
			case 2:
				if k.ID < 96 {
					c.uniformF24(int(k.ID), k.Data)
				}
			case 1:
				if k.ID < 4 {
					c.set(p.VSH_INTUNIFORM_I0+p.Reg(k.ID), k.Data[0])
				}
			case 0:
				if k.ID < 16 {
					b := c.shadow[p.VSH_BOOLUNIFORM] &^ (1 << k.ID)
					b |= (k.Data[0] & 1) << k.ID
					c.set(p.VSH_BOOLUNIFORM, 0x7FFF0000|b&0xFFFF)
				}
			}
		}
		n := uint32(len(pr.outmap))
		c.set(p.VSH_OUTMAP_MASK, pr.outMask)
		c.set(p.SH_OUTMAP_TOTAL, n)
		c.set(p.VSH_OUTMAP_TOTAL1, n-1)
		c.set(p.VSH_OUTMAP_TOTAL2, n-1)
		for k, v := range pr.outmap {
			c.set(p.SH_OUTMAP_O0+p.Reg(k), v)
		}
		c.set(p.SH_OUTATTR_CLOCK, pr.clock)
		mode := uint32(0)
		if pr.useTex {
			mode = 1
		}
		c.set(p.SH_OUTATTR_MODE, mode)
	}
	c.set(p.VSH_INPUTBUFFER_CONFIG, 0xA0000000|uint32(nIn-1))
	c.set(p.VSH_NUM_ATTR, uint32(nIn-1))
	c.set(p.VSH_COM_MODE, 0)
	// Attribute k feeds v_k.
	c.set(p.VSH_ATTR_PERM_LOW, 0x76543210)
	c.set(p.VSH_ATTR_PERM_HIGH, 0xFEDCBA98)
}

// LoadShaderBinary implements the GL_RETRO_pica_shader_binary extension:
// it parses a SHBIN and keeps its first vertex executable under a new name.
func (c *Context) LoadShaderBinary(data []byte) (uint32, error) {
	sb, err := p.ParseSHBIN(data)
	if err != nil {
		return 0, err
	}
	c.nextShader++
	name := fmt.Sprintf("shbin%d", c.nextShader)
	pr, err := newProgram(name, sb)
	if err != nil {
		return 0, err
	}
	if c.shaders == nil {
		c.shaders = map[uint32]*program{}
	}
	c.shaders[c.nextShader] = pr
	return c.nextShader, nil
}

// UseShaderBinary selects a loaded shader for later draws (0: fixed
// function).
func (c *Context) UseShaderBinary(id uint32) error {
	if id == 0 {
		c.custom = nil
		return nil
	}
	pr, ok := c.shaders[id]
	if !ok {
		return fmt.Errorf("no shader binary %d", id)
	}
	c.custom = pr
	return nil
}

// SetShaderUniform sets float uniform c<reg> for custom shaders.
func (c *Context) SetShaderUniform(reg int, v [4]float32) error {
	if reg < 0 || reg >= 96 {
		return fmt.Errorf("uniform register c%d outside c0-c95", reg)
	}
	if c.customUniforms == nil {
		c.customUniforms = map[int][4]float32{}
	}
	c.customUniforms[reg] = v
	return nil
}
