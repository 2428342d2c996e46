// Package hw is the hardware layer of the table as the referee sees it:
// site sensors that deliver debounced snapshots of the board (Sensors) and
// lights that show a frame (Lights).
//
// The back-ends live in sub-packages, each built like a periph.io driver
// (Opts, DefaultOpts, New validating before touching the hardware):
//
//	hw/mcp23017  the MCP23017 I/O expander
//	hw/direct    reed or hall switches on up to 8 MCP23017s (presence only)
//	hw/tiles     sensor tiles running firmware/, over RS-485/UART or I2C
//	hw/serial    the Linux serial port under the tiles' RS-485 line
//	hw/leds      APA102 and WS2812 strips over SPI, with blinking and pulsing
//	hw/sim       the in-memory board and lights of the simulated table
//
// A back-end only scans (Scanner); the Watcher in this package turns its raw
// scans into stable snapshots with the Debouncer, so the same debouncing
// runs over real switches and over the simulated board. Which sensor channel
// and which LED each site uses comes from the board layout (config.Layout).
package hw
