// Package mcp23017 drives the Microchip MCP23017, a 16-bit I/O expander on
// I2C, as the table uses it: sixteen inputs, each a reed or hall switch to
// ground, read in one bus transaction, with interrupt-on-change outputs that
// several chips share on one Pi GPIO.
//
// Datasheet: https://ww1.microchip.com/downloads/en/devicedoc/20001952c.pdf
//
// The driver keeps the power-on register map (IOCON.BANK = 0) and its
// sequential addressing, so the whole configuration is one write and a scan
// is one write-then-read of GPIOA and GPIOB.
package mcp23017
