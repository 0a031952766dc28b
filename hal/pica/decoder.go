package pica

import "github.com/retrogl/retrogl/hal"

// Chip is the backend name of the PICA200.
const Chip = "pica200"

func init() { hal.RegisterDecoder(Chip, Decode) }
