package mcp23017

// Register addresses with IOCON.BANK = 0 (datasheet table 3-5). Each A
// register is followed by its B twin.
const (
	regIODIRA   = 0x00 // I/O direction: 1 = input
	regIPOLA    = 0x02 // input polarity: 1 = inverted
	regGPINTENA = 0x04 // interrupt-on-change enable
	regDEFVALA  = 0x06 // default compare value
	regINTCONA  = 0x08 // 1 = compare with DEFVAL, 0 = with previous value
	regIOCON    = 0x0A // configuration (also at 0x0B)
	regGPPUA    = 0x0C // 100 kΩ pull-ups
	regINTFA    = 0x0E // interrupt flags
	regINTCAPA  = 0x10 // GPIO captured at interrupt
	regGPIOA    = 0x12 // port values; reading clears the interrupt
	regOLATA    = 0x14 // output latches

	// regIOCONBank1 is where IOCON is found when IOCON.BANK = 1, which a
	// chip keeps across a Pi restart; with BANK = 0 the same address is
	// GPINTENB.
	regIOCONBank1 = 0x05
)

// IOCON bits.
const (
	ioconBANK   = 1 << 7 // registers of a port grouped together
	ioconMIRROR = 1 << 6 // INTA and INTB tied internally
	ioconSEQOP  = 1 << 5 // 1 disables sequential addressing
	ioconDISSLW = 1 << 4 // slew rate control disabled
	ioconODR    = 1 << 2 // INT pins open-drain
	ioconINTPOL = 1 << 1 // INT active-high (ignored with ODR)
)
