// Command picasm assembles PICA200 vertex shaders written in the picasso
// syntax of 3DS homebrew into SHBIN (DVLB/DVLP/DVLE) binaries, and
// disassembles SHBIN files back into source that reassembles to the same
// binary.
//
//	picasm -o shader.shbin shader.v.pica     assemble
//	picasm -d shader.shbin                   disassemble to standard output
//
// Shaders load into the pica200 backend through the GL_RETRO_pica_shader_binary
// extension (gles.PicaShaders(ctx).ShaderBinary).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	p "github.com/retrogl/retrogl/hal/pica"
	"github.com/retrogl/retrogl/hal/pica/picasso"
)

func main() {
	dis := flag.Bool("d", false, "disassemble a SHBIN instead of assembling")
	out := flag.String("o", "", "output file (default: standard output)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: picasm [-d] [-o out] file")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out, *dis); err != nil {
		fmt.Fprintln(os.Stderr, "picasm:", err)
		os.Exit(1)
	}
}

func run(in, out string, dis bool) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var result []byte
	if dis {
		sb, err := p.ParseSHBIN(src)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		result = []byte(picasso.Disassemble(sb))
	} else {
		sb, err := picasso.Assemble(string(src))
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		result = sb.Bytes()
	}
	var w io.Writer = os.Stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	_, err = w.Write(result)
	return err
}
