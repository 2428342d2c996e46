package selftest

import "github.com/parchis-table/parchis/internal/spanish"

// tr returns one of the check's sentences in the locale's language.
func tr(en string) string { return formsES.In(spanish.LocaleLang(), en) }

// formsES are the check's sentences in Spanish. The words of raspi-config's
// menus stay as the menus show them.
var formsES = spanish.Forms{
	checkAbout: `Comprueba el hardware de la mesa: busca los expansores de sensores o las
placas que nombra la disposición, enciende cada LED por turno (mire el
tablero: cada casilla se enciende una vez, en el orden de la disposición, y
luego la bandeja), lista las casillas ocupadas e informa de lo que falta.
Estado de salida: 0 todo encontrado, 1 falta algo, 2 mal uso.

A las placas se llega por el bus I2C, o con -serial por su línea RS-485 (el
tty del UART de la Pi o de un adaptador USB, a -baud, 8N1).

Con -sim se comprueba la mesa simulada: los expansores de la disposición se
emulan en un bus I2C en memoria, y la tira en un puerto SPI que lo graba.`,
	checkExample: `  parchis check                                   la mesa real, disposición estándar
  parchis check -layout /etc/parchis/layout.yaml -i2c 1 -spi SPI0.0
  parchis check -layout layout-tiles.yaml -serial /dev/ttyAMA0 -baud 230400
  parchis check -sim -pieces 5:Y,12:YB,YH:YYYY -missing 0x25`,
	hostHint:  "los controladores de la Pi no arrancaron: haga la comprobación en la propia Raspberry Pi (o -sim en otro sitio), una vez como root para ver si es un problema de permisos",
	scanHint:  "los sensores respondieron una vez pero no al leerlos: revise los cables y la alimentación de los expansores o las placas, que puede ir y venir",
	stripHint: "el puerto SPI se abrió pero la tira no responde: revise leds.kind en la disposición (apa102 o ws2812) y cuente los LED de la tira",

	"%s: -serial is for tiles; the layout has sensors of kind %q\n": "%s: -serial es para placas; la disposición tiene sensores de tipo %q\n",
	"%s: unexpected argument %q\n":                                  "%s: argumento de más «%s»\n",
	": -baud needs -serial":                                         ": -baud necesita -serial",
	": -missing: bad address %q\n":                                  ": -missing: dirección «%s» no válida\n",
	": -pieces and -missing need -sim":                              ": -pieces y -missing necesitan -sim",
	": -serial checks real tiles; -sim emulates expanders only":     ": -serial comprueba placas reales; -sim solo emula expansores",
	": -sim emulates expanders only; use a direct layout":           ": -sim solo emula expansores; use una disposición direct",

	"MISSING I2C bus %q: %v\n  %s\n":                    "FALTA   bus I2C %q: %v\n  %s\n",
	"MISSING LED strip: %v\n  %s\n":                     "FALTA   tira de LED: %v\n  %s\n",
	"MISSING SPI port %q for the LED strip: %v\n  %s\n": "FALTA   puerto SPI %q de la tira de LED: %v\n  %s\n",
	"MISSING expander %#02x: %v\n  %s\n":                "FALTA   expansor %#02x: %v\n  %s\n",
	"MISSING sensor reading: %v\n  %s\n":                "FALTA   lectura de sensores: %v\n  %s\n",
	"MISSING sensors: %v\n  %s\n":                       "FALTAN  sensores: %v\n  %s\n",
	"MISSING serial port %q for the tiles: %v\n  %s\n":  "FALTA   puerto serie %q de las placas: %v\n  %s\n",
	"MISSING tile %d: %v\n  %s\n":                       "FALTA   placa %d: %v\n  %s\n",
	"MISSING sensors: layout kind %q has no hardware to check\n  set sensors.kind in the layout to direct or tiles\n": "FALTAN  sensores: el tipo %q de la disposición no tiene hardware que comprobar\n  ponga sensors.kind de la disposición a direct o tiles\n",
	"check: all found":            "check: todo encontrado",
	"check: something is missing": "check: falta algo",
	"found   expander %#02x\n":    "hallado expansor %#02x\n",
	"found   tile %d\n":           "hallada placa %d\n",
	"lit     %d LEDs in turn (%s, %d sites and %d tray lights)\n": "encendidos %d LED por turno (%s, %d casillas y %d luces de la bandeja)\n",
	"occupied %s\n": "ocupadas %s\n",

	"%s is there but this user may not open it: run the check as the daemon's user (sudo -u parchis parchisd check), or add yourself to the %s group (sudo usermod -aG %s $USER, then log in again)":                                 "%s existe pero este usuario no puede abrirlo: haga la comprobación como el usuario del demonio (sudo -u parchis parchisd check), o añádase al grupo %s (sudo usermod -aG %s $USER, y vuelva a iniciar sesión)",
	"%s opened but cannot be set up as a serial line: check that it is the RS-485 adapter or the Pi's UART, and that no login console uses it (raspi-config → Interface Options → Serial Port: login shell No)":                      "%s se abrió pero no se puede configurar como línea serie: compruebe que es el adaptador RS-485 o el UART de la Pi, y que no lo usa ninguna consola de acceso (raspi-config → Interface Options → Serial Port: login shell No)",
	"I2C is off: enable it with raspi-config → Interface Options → I2C (or add dtparam=i2c_arm=on to %s), then reboot":                                                                                                               "I2C está desactivado: actívelo con raspi-config → Interface Options → I2C (o añada dtparam=i2c_arm=on a %s) y reinicie",
	"SPI is off: enable it with raspi-config → Interface Options → SPI (or add dtparam=spi=on to %s), then reboot":                                                                                                                   "SPI está desactivado: actívelo con raspi-config → Interface Options → SPI (o añada dtparam=spi=on a %s) y reinicie",
	"no expander answers at %#02x: check its 3.3 V and ground, SDA and SCL to the Pi's pins 3 and 5, and that its A0–A2 pins set address %#02x (A0=%d A1=%d A2=%d); i2cdetect -y %s lists the addresses that answer (docs/build.md)": "ningún expansor responde en %#02x: revise sus 3,3 V y su masa, SDA y SCL a los pines 3 y 5 de la Pi, y que sus pines A0–A2 den la dirección %#02x (A0=%d A1=%d A2=%d); i2cdetect -y %s lista las direcciones que responden (docs/build.md)",
	"the I2C buses here (%s) cannot be opened: run the check as root once to see why (sudo parchisd check)":                                                                                                                          "los buses I2C de aquí (%s) no se pueden abrir: haga la comprobación una vez como root para ver por qué (sudo parchisd check)",
	"there is no %s: enable the UART with raspi-config → Interface Options → Serial Port (login shell over serial: No; serial port hardware: Yes), or add enable_uart=1 to %s, then reboot":                                          "no existe %s: active el UART con raspi-config → Interface Options → Serial Port (login shell over serial: No; serial port hardware: Yes), o añada enable_uart=1 a %s, y reinicie",
	"there is no %s: plug in the RS-485 USB adapter and look for its name with ls /dev/ttyUSB* /dev/serial/by-id/":                                                                                                                   "no existe %s: conecte el adaptador USB RS-485 y busque su nombre con ls /dev/ttyUSB* /dev/serial/by-id/",
	"there is no I2C bus %q: the buses here are %s; give one with -i2c (sensors.i2c_bus in parchisd.yaml), \"1\" on a Raspberry Pi":                                                                                                  "no existe el bus I2C %q: los buses de aquí son %s; indique uno con -i2c (sensors.i2c_bus en parchisd.yaml), \"1\" en una Raspberry Pi",
	"there is no SPI port %q: the ports here are %s; give one with -spi (lights.spi_port in parchisd.yaml), /dev/spidev0.0 for the strip on pins 19 and 23":                                                                          "no existe el puerto SPI %q: los puertos de aquí son %s; indique uno con -spi (lights.spi_port en parchisd.yaml), /dev/spidev0.0 para la tira en los pines 19 y 23",
	"tile %d does not answer on the I2C bus: check its power, SDA and SCL, and that its firmware has address %d (firmware/README.md)":                                                                                                "la placa %d no responde en el bus I2C: revise su alimentación, SDA y SCL, y que su firmware tenga la dirección %d (firmware/README.md)",
	"tile %d does not answer on the RS-485 line: check its power, that A goes to A and B to B from tile to tile, the 120 Ω terminator at the far end, and that its firmware has address %d (firmware/README.md)":                     "la placa %d no responde en la línea RS-485: revise su alimentación, que A vaya a A y B a B de placa en placa, la resistencia de 120 Ω al final de la línea, y que su firmware tenga la dirección %d (firmware/README.md)",
}
