package r300

import "github.com/retrogl/retrogl/hal"

// Revisions of the simulated boards, as hal.Info.Revision reports them. A
// driver tells from the revision whether the chip has the TCL engine (the
// PVS), as a real driver does from the PCI ID: [OUT] Mesa r300_chipset.c
// gives the RS400 (0x5A41, 0x5A42), RS480 and RS482 IGPs has_tcl = FALSE,
// and those parts run every vertex through VAP_CNTL_STATUS.PVS_BYPASS
// (L1796: "The TCL engine is logically or physically removed").
const (
	// RevisionR300 is the Radeon 9700 board, with the PVS.
	RevisionR300 = "R300 (Radeon 9700), simulated"
	// RevisionNoTCL is an RS400-class IGP without the PVS.
	RevisionNoTCL = "RS400-class IGP without TCL (PVS bypass only), simulated"
)

// HasTCL reports whether a device runs vertex programs.
func HasTCL(info hal.Info) bool { return info.Revision != RevisionNoTCL }
