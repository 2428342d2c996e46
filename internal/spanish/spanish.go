// Package spanish is the project's one way of speaking Spanish. It
// chooses the language from the locale (LC_ALL, LC_MESSAGES, LANG: Lang,
// LocaleLang, Pick), and says in Spanish the sentences the referee, the
// rules engine, the tables and the commands write in English (events'
// details, rule and position errors, answers to commands, a record's
// errors, the flag package's and the system's errors), for the judges'
// pages and the command line (Say). Each sentence has a pattern and its
// Spanish form, where $1… are the pattern's groups, ${cN} is group N
// taken as a colour's English name (Amarillo…) and ${fN} the same as an
// adjective of a piece (amarilla…). EnglishIn and SpanishIn are the
// tests' check that a text is in the language meant.
package spanish

import (
	"regexp"
	"strings"
	"sync"
)

// colourNoun and pieceAdjective say a colour by its letter: as a player
// (Amarillo) and of a piece (una ficha amarilla).
var (
	colourNoun     = map[string]string{"Y": "Amarillo", "B": "Azul", "R": "Rojo", "G": "Verde"}
	pieceAdjective = map[string]string{"Y": "amarilla", "B": "azul", "R": "roja", "G": "verde"}
)

// ColourNoun says a colour (its letter) as a player: Amarillo, Azul,
// Rojo, Verde.
func ColourNoun(letter string) string { return colourNoun[letter] }

// PieceAdjective says a colour (its letter) of a piece: amarilla, azul,
// roja, verde.
func PieceAdjective(letter string) string { return pieceAdjective[letter] }

// detailForm is one English sentence and its Spanish form; prefix is
// what every sentence it matches starts with, checked first because it is
// cheaper than the pattern.
type detailForm struct {
	re     *regexp.Regexp
	es     string
	prefix string
}

// colourWord is the pattern of a colour's English name.
const colourWord = `(Yellow|Blue|Red|Green)`

var detailForms = func() []detailForm {
	pairs := []struct{ en, es string }{
		// a record's line: its number and text, then why (first: a line's
		// reason may itself be a sentence of the engine)
		{`^line (\d+): "(.*)": (.+)$`, `línea $1: «$2»: $3`},
		{`^line (\d+): (.+)$`, `línea $1: $2`},
		// referee: starts, throws, moves, ends
		{`^` + colourWord + ` starts$`, `empieza ${c1}`},
		{`^game set up, ` + colourWord + ` to move$`, `partida preparada, mueve ${c1}`},
		{`^set by a judge$`, `fijada por un juez`},
		{`^opening (.+)$`, `sorteo de salida $1`},
		{`^opening: (.+)$`, `sorteo de salida: $1`},
		{`^no legal move: the throw is lost$`, `ningún movimiento posible: se pierde la tirada`},
		{`^no piece can play the bonus (\d+): it is lost$`, `ninguna ficha puede contar el premio de $1: se pierde`},
		{`^position set by judge (.+)$`, `posición fijada por el juez $1`},
		{`^` + colourWord + ` and ` + colourWord + ` win; waiting for a judge to certify$`, `ganan ${c1} y ${c2}; falta que un juez certifique`},
		{`^a piece too many on (\S+)$`, `una ficha de más en $1`},
		{`^a ` + colourWord + ` piece too many on (\S+)$`, `una ficha ${f1} de más en $2`},
		{`^a piece missing on (\S+)$`, `falta una ficha en $1`},
		{`^a ` + colourWord + ` piece missing on (\S+)$`, `falta una ficha ${f1} en $2`},
		{`^the board agrees with the game again$`, `el tablero vuelve a coincidir con la partida`},
		{`^the piece lifted from (\S+) must be the one played \(ficha tocada es ficha jugada\)$`, `la ficha levantada de $1 es la que se juega (ficha tocada, ficha jugada)`},
		{`^the piece lifted from (\S+) must be the one played$`, `la ficha levantada de $1 es la que se juega`},
		{`^kills ` + colourWord + `'s piece on (\S+)$`, `come una ficha ${f1} en $2`},
		{`^bonus (\d+)$`, `premio de $1`},
		{`^take it to (\S+)$`, `llévela a $1`},
		{`^reaches the goal$`, `llega a la meta`},
		{`^the partner's piece was sent home: (\S+) replaces (\S+)$`, `la ficha de la pareja vuelve a casa: $1 sustituye a $2`},
		{`^a move the sensors cannot see, taken as played when the next throw came$`, `un movimiento que los sensores no ven, dado por hecho al llegar la tirada siguiente`},
		{`^the die is not flat: throw again$`, `el dado no quedó plano: repita la tirada`},
		{`^the die left the tray: throw again$`, `el dado salió de la bandeja: repita la tirada`},
		{`^more than one die: throw one die again$`, `más de un dado: tire un solo dado otra vez`},
		{`^the die could not be read: throw again$`, `no se pudo leer el dado: repita la tirada`},
		{`^the die appeared or turned without tumbling: throw again$`, `el dado apareció o giró sin rodar: repita la tirada`},
		{`^bad die value (-?\d+): throw again$`, `valor de dado $1 no válido: repita la tirada`},
		{`^the ` + colourWord + ` piece on (\S+) must go home before the next throw: this throw does not count$`, `la ficha ${f1} de $2 debe volver a casa antes de la tirada siguiente: esta tirada no cuenta`},
		{`^the ([1-6]) is still to be played: this throw does not count$`, `falta jugar el $1: esta tirada no cuenta`},
		{`^the bonus (\+\d+) is still to be played: this throw does not count$`, `falta contar el premio $1: esta tirada no cuenta`},
		{`^the board does not agree with the game yet: this throw does not count$`, `el tablero aún no coincide con la partida: esta tirada no cuenta`},
		{`^counts 7$`, `cuenta 7`},
		{`^third 6: no piece goes home \(none moved, or it is in its column or goal\); the turn passes$`, `tercer seis: ninguna ficha vuelve a casa (no movió ninguna, o está en su pasillo o en la meta); pasa el turno`},
		{`^third 6: the piece on (\S+) goes home; the turn passes$`, `tercer seis: la ficha de $1 vuelve a casa; pasa el turno`},
		{`^the piece played (\S+) went on to (\S+), (\d+) steps from (\S+): the move (\S+) stands$`, `la ficha jugada en $1 siguió hasta $2, a $3 casillas de $4: vale el movimiento $5`},
		{`^the game is over$`, `la partida ha terminado`},
		{`^` + colourWord + `'s piece moved: a player never moves the partner's pieces$`, `se movió una ficha ${f1}: nadie mueve las fichas de su pareja`},
		{`^` + colourWord + `'s piece moved during ` + colourWord + `'s turn$`, `se movió una ficha ${f1} en el turno de ${c2}`},
		{`^a piece moved before the throw$`, `se movió una ficha antes de tirar`},
		{`^not a legal move$`, `no es un movimiento legal`},
		// engine: why a move or a throw breaks the rules
		{`^illegal move (\S+): (.+) \(([a-z-]+), RULES\.md (§\d+)\)$`, `movimiento ilegal $1: $2 ($3, reglamento $4)`},
		{`^(.+) \(([a-z-]+), RULES\.md (§\d+)\)$`, `$1 ($2, reglamento $3)`},
		{`^no move is due: the phase is (\S+)$`, `no toca mover: la fase es $1`},
		{`^no throw is due: the phase is (\S+)$`, `no toca tirar: la fase es $1`},
		{`^no bonus of (\d+) is due: the phase is (\S+)$`, `no se debe ningún premio de $1: la fase es $2`},
		{`^no such site$`, `esa casilla no existe`},
		{`^the piece on (\S+) is ` + colourWord + `'s, and ` + colourWord + ` is to move$`, `la ficha de $1 es de ${c2}, y mueve ${c3}`},
		{`^there is no piece on (\S+)$`, `no hay ninguna ficha en $1`},
		{`^a piece in the goal never moves$`, `una ficha en la meta ya no se mueve`},
		{`^a bonus never brings a piece out of home$`, `un premio nunca saca una ficha de casa`},
		{`^a piece leaves home only with a 5, and the throw is (\d+)$`, `una ficha sale de casa solo con un 5, y la tirada es $1`},
		{`^a piece comes out onto its exit square (\S+)$`, `una ficha sale a su casilla de salida, $1`},
		{`^the exit square (\S+) holds two of ` + colourWord + `'s own pieces$`, `la casilla de salida $1 tiene ya dos fichas de ${c2}`},
		{`^no legal exit$`, `ninguna salida posible`},
		{`^(\S+) is not on ` + colourWord + `'s route$`, `$1 no está en el recorrido de ${c2}`},
		{`^pieces never move backwards$`, `las fichas nunca retroceden`},
		{`^(\S+) to (\S+) is (\d+) steps and the count is (\d+)$`, `de $1 a $2 hay $3 casillas y la cuenta es $4`},
		{`^it passes the barrier on (\S+)$`, `atraviesa la barrera de $1`},
		{`^it lands on the barrier on (\S+)$`, `cae en la barrera de $1`},
		{`^(\S+) already holds two pieces$`, `$1 ya tiene dos fichas`},
		{`^with a 5 and a piece at home, a piece must come out$`, `con un 5 y fichas en casa, hay que sacar ficha`},
		{`^with a 6, a piece must leave a barrier \((.*)\)$`, `con un 6, hay que abrir una barrera ($1)`},
		{`^not a legal move \(legal: (.*)\)$`, `no es un movimiento legal (legales: $1)`},
		{`^it kills nothing on (\S+): write (\S+)$`, `no come nada en $1: escriba $2`},
		{`^landing there kills: write (\S+)$`, `al caer ahí se come: escriba $1`},
		{`^it is ` + colourWord + `'s turn$`, `es el turno de ${c1}`},
		// engine: why a position (PPN) is not valid
		{`^bad position: field (\d) \((placement|side to move|phase|sixes|last moved|starter)\): (.+)$`, `posición no válida: campo $1 ($2): $3`},
		{`^bad position: (.+)$`, `posición no válida: $1`},
		{`^placement$`, `colocación`},
		{`^side to move$`, `turno`},
		{`^phase$`, `fase`},
		{`^sixes$`, `seises`},
		{`^last moved$`, `última movida`},
		{`^starter$`, `quien empezó`},
		{`^want 6 fields separated by single spaces, got (\d+)$`, `se esperan 6 campos separados por un espacio, hay $1`},
		{`^"(.*)" is not a colour: want Y, B, R or G$`, `«$1» no es un color: Y, B, R o G`},
		{`^"(.*)": want throw, 1…6, \+20, \+10 or end$`, `«$1»: se espera throw, 1…6, +20, +10 o end`},
		{`^"(.*)": want 0, 1 or 2$`, `«$1»: se espera 0, 1 o 2`},
		{`^(-?\d+): want 0, 1 or 2$`, `$1: se espera 0, 1 o 2`},
		{`^"-": write null for no piece$`, `«-»: escriba null si no hay ficha`},
		{`^a 6 is to be played, so sixes must be at least 1$`, `hay que jugar un 6, así que los seises son al menos 1`},
		{`^a (\d) is to be played, so sixes must be 0$`, `hay que jugar un $1, así que los seises son 0`},
		{`^"(.*)" is not a site or -$`, `«$1» no es una casilla ni -`},
		{`^(\S+) is a home: the piece last moved is never at home$`, `$1 es una casa: la última ficha movida nunca está en casa`},
		{`^(\S+) is off ` + colourWord + `'s route: the piece last moved is the side to move's$`, `$1 está fuera del recorrido de ${c2}: la última ficha movida es de quien mueve`},
		{`^empty: write - when every piece is at home$`, `vacía: escriba - cuando todas las fichas están en casa`},
		{`^"(.*)": want SITE:COLOURS$`, `«$1»: se espera CASILLA:COLORES`},
		{`^"(.*)" is not a site$`, `«$1» no es una casilla`},
		{`^(\S+): homes are not placed \(unplaced pieces are at home\)$`, `$1: las casas no se escriben (las fichas no colocadas están en casa)`},
		{`^(\S+): sites must be in canonical order, each once$`, `$1: las casillas van en el orden canónico, una vez cada una`},
		{`^(\S+): holds (\d+) pieces, want 1 to (\d+)$`, `$1: tiene $2 fichas, se admiten de 1 a $3`},
		{`^(\S+): "(.*)" is not a colour$`, `$1: «$2» no es un color`},
		{`^(\S+): a ` + colourWord + ` piece never stands there$`, `$1: una ficha ${f2} nunca está ahí`},
		{`^(\S+): ` + colourWord + ` has more than 4 pieces$`, `$1: ${c2} tiene más de 4 fichas`},
		{`^(\S+): pieces of non-partner colours share only a safe square$`, `$1: fichas de colores no compañeros solo comparten un seguro`},
		// engine: a game record that does not replay
		{`^header lacks the tag (\w+)$`, `a la cabecera le falta la etiqueta $1`},
		{`^line longer than (\d+) bytes: (.+)$`, `línea de más de $1 bytes: $2`},
		{`^tag (\w+): the value must be in double quotes$`, `etiqueta $1: el valor va entre comillas dobles`},
		{`^tag Setup has starter (\S+) but Start is (\S+)$`, `la etiqueta Setup dice que empieza $1, pero Start dice $2`},
		{`^tag (\w+): (.+)$`, `etiqueta $1: $2`},
		{`^"(.*)": want YR, BG or \*$`, `«$1»: se espera YR, BG o *`},
		{`^judge's correction: (.+)$`, `corrección del juez: $1`},
		{`^` + colourWord + ` lost no bonus of (\d+) just now$`, `${c1} no acaba de perder ningún premio de $2`},
		{`^the throw must be played$`, `hay que jugar la tirada`},
		{`^the throw must be played \(legal: (.*)\)$`, `hay que jugar la tirada (legales: $1)`},
		{`^a third 6 is resolved by the rules: write !$`, `un tercer 6 lo resuelven las reglas: escriba !`},
		{`^the throw has no legal move: write -$`, `la tirada no tiene movimiento legal: escriba -`},
		{`^the bonus can be played, so it must be \(§7\)$`, `el premio se puede contar, así que hay que contarlo (§7)`},
		{`^want a header line \[Key "value"\] or a blank line before the actions$`, `se espera una línea de cabecera [Clave "valor"] o una línea en blanco antes de las acciones`},
		{`^want \[Key "value"\]$`, `se espera [Clave "valor"]`},
		{`^a note opened with \{ must end the line with \}$`, `una nota abierta con { ha de cerrar la línea con }`},
		{`^want COLOUR THROW-OR-BONUS MOVE-OR-DASH, e\.g\. Y 5 YH-5$`, `se espera COLOR TIRADA-O-PREMIO MOVIMIENTO-O-GUION, p. ej. Y 5 YH-5`},
		{`^bad throw or bonus "(.*)": want 1…6, \+10 or \+20$`, `tirada o premio «$1» no válido: 1…6, +10 o +20`},
		{`^! marks only a third 6$`, `! solo marca un tercer 6`},
		{`^bad move "(.*)": want FROM-TO or FROMxTO, e\.g\. 12-17 or YHx5$`, `movimiento «$1» no válido: se espera DESDE-HASTA o DESDExHASTA, p. ej. 12-17 o YHx5`},
		{`^bad move "(.*)": bad site "(.*)" before "(.*)"$`, `movimiento «$1» no válido: casilla «$2» no válida antes de «$3»`},
		{`^bad move "(.*)": bad site "(.*)" after "(.*)"$`, `movimiento «$1» no válido: casilla «$2» no válida después de «$3»`},
		{`^bad die value (-?\d+): want 1…6$`, `valor de dado $1 no válido: 1…6`},
		{`^bad position JSON: (.+)$`, `posición JSON no válida: $1`},
		{`^tag (\w+) given twice$`, `la etiqueta $1 aparece dos veces`},
		{`^the record ends before the last throw is played$`, `el acta termina antes de jugarse la última tirada`},
		{`^tag Result is (\S+) but the game ends with (\S+) winning$`, `la etiqueta Result dice $1 pero la partida la ganan $2`},
		{`^tag Result is (\S+) but the game is not over$`, `la etiqueta Result dice $1 pero la partida no ha terminado`},
		{`^a judge's correction needs a whole PPN$`, `la corrección de un juez necesita una PPN completa`},
		{`^record does not replay: (.+)$`, `el acta no se reproduce: $1`},
		{`^record replays to an unfinished game \((.+)\), the result says (\S+)$`, `el acta lleva a una partida sin terminar ($1), el resultado dice $2`},
		{`^record replays to a win of (\S+), the result says (\S+)$`, `el acta lleva a una victoria de $1, el resultado dice $2`},
		{`^record replays to position (.+), the result says (.+)$`, `el acta lleva a la posición $1, el resultado dice $2`},
		// the tables' answers to the judges' commands
		{`^unauthorised: (.+)$`, `no autorizado: $1`},
		{`^bad command: (.+)$`, `orden no válida: $1`},
		{`^judge "(.+)" is not one of this table's judges$`, `el juez «$1» no es uno de los jueces de esta mesa`},
		{`^(\S+): the table has no result$`, `$1: la mesa no tiene resultado`},
		{`^(\S+): the table trusts no judge's key$`, `$1: la mesa no confía en ninguna clave de juez`},
		{`^table busy: too many commands waiting$`, `mesa ocupada: demasiadas órdenes en espera`},
		{`^no result is waiting for a judge$`, `ningún resultado espera a un juez`},
		{`^the command carries no certification$`, `la orden no lleva certificación`},
		{`^the result is already certified by (.+)$`, `el resultado ya está certificado por $1`},
		{`^the result is already rejected by (.+)$`, `el resultado ya está rechazado por $1`},
		{`^the result ([0-9a-f]+) is already certified by (.+)$`, `el resultado $1 ya está certificado por $2`},
		{`^the result ([0-9a-f]+) is already rejected by (.+)$`, `el resultado $1 ya está rechazado por $2`},
		{`^no result is waiting for a judge \(the verdict names (\S*)\)$`, `ningún resultado espera a un juez (el veredicto nombra $1)`},
		{`^no result ([0-9a-f]*) at this table: waiting are (.+)$`, `esta mesa no tiene el resultado $1: esperan $2`},
		{`^(\S+): no result (\S*) at this table: its results are (.*)$`, `$1: esta mesa no tiene el resultado $2; los suyos son $3`},
		{`^(\S+): missing record_sha256: name the result the verdict is for$`, `$1: falta record_sha256: indique a qué resultado va el veredicto`},
		{`^(\S+): record_sha256 "(.*)": want 64 lower-case hex digits$`, `$1: record_sha256 «$2»: se esperan 64 cifras hexadecimales en minúscula`},
		{`^the game is at event (\d+), the judge saw event (\d+): look at the table again$`, `la partida va por el evento $1 y el juez vio el $2: vuelva a mirar la mesa`},
		{`^unknown command "(.+)"$`, `orden desconocida «$1»`},
		{`^(\S+) command by "(.+)": (.+)$`, `orden $1 del juez «$2»: $3`},
		{`^certification by "(.+)": (.+)$`, `certificación de «$1»: $2`},
		{`^not signed$`, `sin firma`},
		{`^judge's key is not among the trusted judges' keys$`, `la clave del juez no está entre las de confianza`},
		{`^ed25519: bad signature$`, `firma no válida`},
		{`^bad signature$`, `firma no válida`},
		// what a table's status says needs attention
		{`^the journal was damaged at byte (\d+) \((.+)\); the game resumes from record (\d+), before the damage; (\d+) records after it are in (\S+), the original in (\S+)$`, `el diario se dañó en el byte $1 ($2); la partida sigue desde el registro $3, anterior al daño; los $4 registros de después están en $5, y el original en $6`},
		{`^the journal cannot be written \((.+)\): the game goes on in memory, (\d+) inputs held$`, `no se puede escribir el diario ($1): la partida sigue en memoria, con $2 entradas retenidas`},
		{`^the feed's queue cannot be written \((.+)\): (\d+) events held$`, `no se puede escribir la cola de la emisión ($1): $2 eventos retenidos`},
		// the dashboard's own checks of a result
		{`^result of (\S+): table signature: (.+)$`, `resultado de $1: firma de la mesa: $2`},
		{`^result of (\S+): record does not match record_sha256 \(record hashes to (\S+), result says "(.*)"\)$`, `resultado de $1: el acta no coincide con su SHA-256 (da $2, el resultado dice «$3»)`},
		{`^result of (\S+): key (\S+): signed by a key that is not the table's \((\S+)\)$`, `resultado de $1: clave $2: firmado con una clave que no es la de la mesa ($3)`},
		// the command line: its own errors, the flag package's, and the
		// system's about files
		{`^bad die "(.*)": want 1…6$`, `dado «$1» no válido: 1…6`},
		{`^record hash: (\S+) hashes to (\S+), the result says (\S*)$`, `hash del acta: $1 da $2, el resultado dice $3`},
		{`^record: the result carries none; give RECORD$`, `acta: el resultado no la lleva; indique ACTA`},
		{`^table signature: made with key (\S+), want (\S+)$`, `firma de la mesa: hecha con la clave $1, se esperaba $2`},
		{`^certified by (.+): the judge's key is not checked: give -judges FILE \(or -trust-keys\)$`, `certificado por $1: la clave del juez no se ha comprobado: indique -judges FICHERO (o -trust-keys)`},
		{`^rejected by (.+): the judge's key is not checked: give -judges FILE \(or -trust-keys\)$`, `rechazado por $1: la clave del juez no se ha comprobado: indique -judges FICHERO (o -trust-keys)`},
		{`^the table's key is not checked: give -table-key KEY \(or -trust-keys\)$`, `la clave de la mesa no se ha comprobado: indique -table-key CLAVE (o -trust-keys)`},
		{`^certification: verdict "(.*)": want "certified" or "rejected"$`, `certificación: veredicto «$1» no válido: certified o rejected`},
		{`^signature does not verify$`, `la firma no se verifica`},
		{`^want three numbers, ONE,TWO,HYSTERESIS \(e\.g\. 180,420,30\)$`, `se esperan tres números, ONE,TWO,HYSTERESIS (p. ej. 180,420,30)`},
		{`^"(.*)" is not a count of 0…4095$`, `«$1» no es una cuenta de 0…4095`},
		{`^ONE \((\d+)\) must be below TWO \((\d+)\)$`, `ONE ($1) ha de ser menor que TWO ($2)`},
		{`^HYSTERESIS \((\d+)\) must be below ONE \((\d+)\)$`, `HYSTERESIS ($1) ha de ser menor que ONE ($2)`},
		{`^want NORTH,SOUTH colour letters \(Y, B, R, G; e\.g\. Y,R\) or none$`, `se esperan las letras de color NORTE,SUR (Y, B, R, G; p. ej. Y,R) o none`},
		{`^north: (.+)$`, `norte: $1`},
		{`^south: (.+)$`, `sur: $1`},
		{`^north and south are both (\S+): a tile could not tell the pieces apart$`, `norte y sur son ambos $1: una placa no distinguiría las fichas`},
		{`^"(.*)" is not a tile address \((\d+)…(\d+)\)$`, `«$1» no es una dirección de placa ($2…$3)`},
		{`^tile (\d+) named twice$`, `la placa $1 aparece dos veces`},
		{`^tile (\d+): (.+)$`, `placa $1: $2`},
		{`^no answer$`, `no responde`},
		{`^no good answer: (.+)$`, `ninguna respuesta válida: $1`},
		{`^thresholds refused: (.+)$`, `umbrales rechazados: $1`},
		{`^answered with thresholds (.+), not the (.+) sent$`, `respondió con los umbrales $1, no con los $2 enviados`},
		{`^fewer channels than the layout uses: it reports (\d+), the layout uses (.+)$`, `menos canales de los que usa la disposición: dice tener $1, la disposición usa $2`},
		{`^garbled answer: (.+)$`, `respuesta ilegible: $1`},
		{`^answer from address (\d+)$`, `respuesta desde la dirección $1`},
		{`^stale answer \(tag (\d+), want (\d+)\)$`, `respuesta atrasada (marca $1, se esperaba $2)`},
		{`^bad bot "(.*)": mc:N wants N, playouts a move, of at least 1$`, `bot «$1» no válido: en mc:N, N (simulaciones por jugada) ha de ser al menos 1`},
		{`^bad bot "(.*)": want random, greedy, mc or mc:N$`, `bot «$1» no válido: random, greedy, mc o mc:N`},
		{`^flag provided but not defined: (\S+)$`, `opción desconocida: $1`},
		{`^flag needs an argument: (\S+)$`, `a la opción $1 le falta su valor`},
		{`^bad flag syntax: (.+)$`, `opción mal escrita: $1`},
		{`^invalid value "(.*)" for flag (\S+): (.+)$`, `valor «$1» no válido para la opción $2: $3`},
		{`^invalid boolean value "(.*)" for (\S+): (.+)$`, `valor «$1» no válido para $2: $3`},
		{`^invalid boolean flag (\S+): (.+)$`, `opción $1 no válida: $2`},
		{`^parse error$`, `no tiene la forma esperada`},
		{`^value out of range$`, `fuera de rango`},
		{`^time: invalid duration "(.*)"$`, `duración «$1» no válida`},
		{`^time: missing unit in duration "(.*)"$`, `a la duración «$1» le falta la unidad (ms, s, m, h)`},
		{`^time: unknown unit "(.*)" in duration "(.*)"$`, `unidad «$1» desconocida en la duración «$2»`},
		{`^(?:open|stat|read|lstat) (.+): no such file or directory$`, `$1: no existe`},
		{`^(?:open|stat|read|lstat|mkdir|create|write) (.+): permission denied$`, `$1: permiso denegado`},
		{`^(?:open|read|write) (.+): is a directory$`, `$1: es una carpeta, no un fichero`},
		{`^(?:open|stat|read|lstat|mkdir) (.+): not a directory$`, `$1: no es una carpeta`},
		{`^(?:write|sync|open|create|mkdir|rename) (.+): no space left on device$`, `$1: no queda espacio en el disco`},
		{`^(?:write|sync|open|create|mkdir|rename) (.+): read-only file system$`, `$1: el sistema de ficheros es de solo lectura`},
		{`^(\S+): (?:open|stat|read|lstat) (.+): no such file or directory$`, `$1: $2: no existe`},
		{`^image: (.+)$`, `imagen: $1`},
		// parchis dice eval's confusion matrix and summary (vision.Tally)
		{`^( *) true\\read(.*)$`, `${1}real\leído$2`},
		{`^true\\read(.*)$`, `real\leído$1`},
		{`^values (\d+): read-rate (\S+) \((\d+)\), wrong-rate (\S+) \((\d+)\)$`, `valores $1: tasa de lectura $2 ($3), tasa de error $4 ($5)`},
		{`^multi (\S+) of (\d+)$`, `multi $1 de $2`},
		{`^edge (\S+) of (\d+) \((\d+) given a value\)$`, `edge $1 de $2 ($3 con un valor dado)`},
		{`^(\S+) ms/image$`, `$1 ms/imagen`},
		{`^invalid character '(.+)' looking for beginning of value$`, `carácter '$1' inesperado: no empieza ningún valor JSON`},
		{`^unexpected end of JSON input$`, `el JSON se acaba antes de tiempo`},
		{`^json: unknown field "(.*)"$`, `json: campo «$1» desconocido`},
		{`^judges: the demo judge juez/juez is allowed only on a loopback address: give the judges \(a judges file\) \(addr (\S+)\)$`, `panel: el juez de demostración juez/juez solo se admite en una dirección local (loopback): indique los jueces (un fichero de jueces) (addr $1)`},
		{`^the demo judge juez/juez is allowed only on a loopback address: give the judges \(a judges file\)$`, `el juez de demostración juez/juez solo se admite en una dirección local (loopback): indique los jueces (un fichero de jueces)`},
		// the journal's damage
		{`^record cut short$`, `registro cortado`},
		{`^record CRC mismatch$`, `el CRC del registro no cuadra`},
		{`^record length out of range: (\d+)$`, `longitud de registro fuera de rango: $1`},
		// parchisd's hardware and start
		{`^sensors: no GPIO named "(.*)"$`, `sensores: no hay ningún GPIO llamado «$1»`},
		{`^sensors: unknown backend "(.*)"$`, `sensores: backend «$1» desconocido`},
		{`^sensors: I2C bus "(.*)": (.+)$`, `sensores: bus I2C «$1»: $2`},
		{`^sensors: (.+)$`, `sensores: $1`},
		{`^lights: SPI port "(.*)": (.+)$`, `luces: puerto SPI «$1»: $2`},
		{`^camera: source "(.*)" works only in parchisd sim$`, `cámara: la fuente «$1» solo funciona en parchisd sim`},
		{`^camera: starting "(.*)": (.+)$`, `cámara: al arrancar «$1»: $2`},
		{`^camera: (.+)$`, `cámara: $1`},
		{`^data folder: (.+)$`, `carpeta de datos: $1`},
		{`^tour: (.+)$`, `visita: $1`},
		{`^log: (.+)$`, `registro: $1`},
		{`^metrics: (.+)$`, `métricas: $1`},
		{`^broker: listen (\S+): (.+)$`, `broker: escuchar en $1: $2`},
		{`^(?:listen tcp|dial tcp) (\S+): bind: address already in use$`, `$1: la dirección ya está en uso`},
		{`^(.+): bind: address already in use$`, `$1: la dirección ya está en uso`},
		// the daemon's configuration
		{`^config: line (\d+): (\S+): (.+)$`, `configuración: línea $1: $2: $3`},
		{`^config: (.+)$`, `configuración: $1`},
		{`^(\S+): config: line (\d+): (\S+): (.+)$`, `$1: configuración: línea $2: $3: $4`},
		{`^(\S+): config: (.+)$`, `$1: configuración: $2`},
		{`^layout: (.+)$`, `disposición: $1`},
		{`^field (\S+) not found in type (\S+)$`, `el campo $1 no existe (en $2)`},
		{`^bad duration "(.*)": want e\.g\. 300ms or 2s$`, `duración «$1» no válida: p. ej. 300ms o 2s`},
		{`^"(.*)": want HOST:PORT, such as 127\.0\.0\.1:1883$`, `«$1»: se espera HOST:PUERTO, como 127.0.0.1:1883`},
		{`^"(.*)": port "(.*)": want 1 to 65535$`, `«$1»: puerto «$2»: de 1 a 65535`},
		{`^"(.*)": bad host "(.*)"$`, `«$1»: host «$2» no válido`},
		{`^"(.*)": want one of (.+)$`, `«$1»: se espera uno de estos: $2`},
		{`^"(.*)": want 1 to 64 letters, digits, '\.', '_' or '-'$`, `«$1»: de 1 a 64 letras, cifras, '.', '_' o '-'`},
		{`^required: where the journal and games are kept$`, `obligatorio: dónde se guardan el diario y las partidas`},
		{`^"(.*)": the pip rules are no reader of their own: they witness the learned reader's unsure dice \(write learned\)$`, `«$1»: las reglas de los puntos no son un lector por sí solas: son testigo de los dados dudosos del lector aprendido (escriba learned)`},
		{`^"(.*)": only for sensors\.backend tiles \(leave it empty for (\S+)\)$`, `«$1»: solo para sensors.backend tiles (déjelo vacío con $2)`},
		{`^"(.*)": want the device's path, such as /dev/ttyAMA0$`, `«$1»: se espera la ruta del dispositivo, como /dev/ttyAMA0`},
		{`^(\d+): want a standard rate: (.+) \(the tiles run at (\d+)\)$`, `$1: se espera una velocidad estándar: $2 (las placas van a $3)`},
		{`^required for camera\.source (\S+)$`, `obligatorio con camera.source $1`},
		{`^(\d+)×(\d+): want 64 to 4096 each$`, `$1×$2: de 64 a 4096 cada uno`},
		{`^(-?\d+): want (-?\d+) to (-?\d+)$`, `$1: de $2 a $3`},
		{`^"(.*)": want a URL such as tcp://127\.0\.0\.1:1883$`, `«$1»: se espera una URL como tcp://127.0.0.1:1883`},
		{`^"(.*)": scheme "(.*)": want tcp, ssl, ws or wss$`, `«$1»: esquema «$2»: tcp, ssl, ws o wss`},
		{`^give both or neither$`, `indique los dos o ninguno`},
		{`^client certificates need the broker's own cert and key$`, `los certificados de cliente necesitan el certificado y la clave del propio broker`},
		{`^required$`, `obligatorio`},
		{`^"(.*)": a user of that name is already configured$`, `«$1»: ya hay un usuario con ese nombre`},
		{`^want a hash made by parchisd hash-password, not the password itself$`, `se espera un hash hecho con parchisd hash-password, no la contraseña misma`},
		{`^required for a table user: the event it publishes under$`, `obligatorio para un usuario de mesa: el torneo bajo el que publica`},
		{`^required for a table user: the table it publishes as$`, `obligatorio para un usuario de mesa: la mesa que es`},
		{`^required when the dashboard listens beyond this machine \(addr (\S+)\): the demo judge would let anyone certify$`, `obligatorio si el panel escucha fuera de esta máquina (addr $1): el juez de demostración dejaría certificar a cualquiera`},
		{`^"(.*)": want es or en$`, `«$1»: es o en`},
		{`^language "(.*)": want es or en$`, `idioma «$1»: es o en`},
		{`^want a name and a public_key$`, `se espera un nombre y una public_key`},
		{`^want an Ed25519 public key in standard base64 \((\d+) bytes\)$`, `se espera una clave pública Ed25519 en base64 estándar ($1 bytes)`},
		{`^want 4 names \(Yellow, Blue, Red, Green\), got (\d+)$`, `se esperan 4 nombres (Amarillo, Azul, Rojo, Verde), hay $1`},
		{`^unknown mistake: want one of (.+)$`, `error desconocido: se espera uno de estos: $1`},
		{`^(\S+): want a rate from 0 to 1$`, `$1: se espera una tasa de 0 a 1`},
		{`^(\S+): want from 100ms to 10s$`, `$1: de 100ms a 10s`},
		{`^unknown way of handling pieces: want one of (.+)$`, `manera de manejar las fichas desconocida: se espera una de estas: $1`},
		{`^(\S+): a piece counted out rests one action on each square, so want less than referee\.grace \((\S+)\), or count-out 0$`, `$1: una ficha contada casilla a casilla se para una acción en cada una, así que ha de ser menor que referee.grace ($2), o count-out 0`},
		{`^(\S+): want at least 1ms$`, `$1: al menos 1ms`},
		{`^(\d+): want 0 \(none\) to 1000000$`, `$1: de 0 (ninguna) a 1000000`},
		{`^every colour is a bot: a robot partner needs a player to make its moves$`, `todos los colores son bots: un compañero robot necesita un jugador que haga sus movimientos`},
		{`^no PEM certificate in it$`, `no contiene ningún certificado PEM`},
		{`^bad sensor channel "(.*)": want DEVICE\.PIN, such as 2\.13$`, `canal de sensor «$1» no válido: se espera DISPOSITIVO.PIN, como 2.13`},
	}
	out := make([]detailForm, len(pairs))
	for i, p := range pairs {
		re := regexp.MustCompile(p.en)
		prefix, _ := re.LiteralPrefix()
		out[i] = detailForm{re, p.es, prefix}
	}
	return out
}()

// colourByName maps a colour's English name to its letter.
var colourByName = map[string]string{"Yellow": "Y", "Blue": "B", "Red": "R", "Green": "G"}

// Say returns the Spanish form of s and whether it has one. A sentence
// made of parts joined by "; " or ", by judge" is said part by part.
func Say(s string) (string, bool) {
	said.Lock()
	r, ok := said.m[s]
	said.Unlock()
	if ok {
		return r.es, r.ok
	}
	es, found := say(s)
	if len(s) > maxSaidLen {
		return es, found
	}
	said.Lock()
	if len(said.m) >= maxSaid {
		clear(said.m)
	}
	said.m[s] = saying{es, found}
	said.Unlock()
	return es, found
}

// said keeps Say's answers: the judges' pages say the same sentences
// again at every render, and trying every pattern of the catalogue on a
// sentence costs tens of microseconds. It is emptied when it holds
// maxSaid sentences, and keeps none longer than maxSaidLen bytes, so
// that it stays within a couple of megabytes whatever the tables send.
var said = struct {
	sync.Mutex
	m map[string]saying
}{m: map[string]saying{}}

const (
	maxSaid    = 4096
	maxSaidLen = 256
)

// saying is one of Say's answers.
type saying struct {
	es string
	ok bool
}

// say is Say without its memory.
func say(s string) (string, bool) {
	for _, f := range detailForms {
		if !strings.HasPrefix(s, f.prefix) {
			continue
		}
		m := f.re.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		var b []byte
		tmpl := f.es
		// ${cN} and ${fN}: group N as a colour's name or adjective.
		for {
			i := strings.Index(tmpl, "${c")
			if j := strings.Index(tmpl, "${f"); j >= 0 && (i < 0 || j < i) {
				i = j
			}
			if i < 0 {
				break
			}
			j := strings.IndexByte(tmpl[i:], '}')
			n := 0
			for _, d := range tmpl[i+3 : i+j] {
				n = n*10 + int(d-'0')
			}
			letter := colourByName[s[m[2*n]:m[2*n+1]]]
			word := colourNoun[letter]
			if tmpl[i+2] == 'f' {
				word = pieceAdjective[letter]
			}
			tmpl = tmpl[:i] + word + tmpl[i+j+1:]
		}
		b = f.re.ExpandString(b, tmpl, s, m)
		out := string(b)
		// What a group holds may be a sentence of its own (a reason
		// inside an error).
		for k := 1; k < len(m)/2; k++ {
			if m[2*k] < 0 {
				continue
			}
			g := s[m[2*k]:m[2*k+1]]
			if es, ok := Say(g); ok && es != g {
				out = strings.Replace(out, g, es, 1)
			}
		}
		return out, true
	}
	if before, judge, ok := strings.Cut(s, ", by judge "); ok {
		if es, ok := Say(before); ok {
			return es + ", por el juez " + judge, true
		}
	}
	if before, how, ok := strings.Cut(s, " ("); ok && strings.HasSuffix(how, ")") {
		es1, ok1 := Say(before)
		es2, ok2 := Say(strings.TrimSuffix(how, ")"))
		if ok1 && ok2 {
			return es1 + " (" + es2 + ")", true
		}
	}
	if parts := strings.Split(s, "; "); len(parts) > 1 {
		for i, p := range parts {
			es, ok := Say(p)
			if !ok {
				return s, false
			}
			parts[i] = es
		}
		return strings.Join(parts, "; "), true
	}
	return s, false
}
