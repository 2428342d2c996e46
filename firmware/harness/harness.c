/*
 * tileharness runs the tile firmware (firmware/avr) in simavr: one emulated
 * ATmega328P per tile, all on one RS-485 line that is bridged to a
 * pseudo-terminal, so the daemon's hw/tiles opens it as a serial port.
 *
 * Each tile's four CD74HC4067 multiplexers are modelled by watching the
 * select lines (PB0..PB3): the voltage of channel m*13+s is put on ADCm
 * while select address s is out. A test's script sets channel voltages;
 * they take effect together when the tile starts a scan (select address 0),
 * so every scan sees one consistent board. The transceiver's enable pin
 * (PD2) is watched: a byte sent with it low, or the line released before
 * the last byte is out, is reported as an error.
 *
 * The emulation is paced to the wall clock. It is a test tool run on the
 * build machine, not part of the daemon.
 *
 * Usage: tileharness [-e] [-v MV] FIRMWARE.elf ADDR[:BOOTS]...
 *   -e      echo every request back, as a transceiver whose receiver stays on
 *   -v MV   every channel's voltage at power-up (default 2500 mV, empty)
 *   ADDR    a tile's address, written to its EEPROM; BOOTS its boot counter
 *
 * Commands on standard input, one a line (T is a tile's address):
 *   set T CH MV     channel CH of tile T reads MV millivolts from its first
 *                   scan after the next command that is not a set (so the
 *                   sets before a sync all take effect in the same scan)
 *   sync T K ID     print "synced ID US" once tile T has started K more scans
 *   reset T         reset tile T (its reset pin)
 *   hang T          stall tile T's main loop: its watchdog must restart it
 *   mute T          disconnect tile T's transmitter; unmute T reconnects it
 *   drop T          lose tile T's next answer on the line
 *   corrupt T       flip a bit in the sixth byte of tile T's next answer
 *   quit            stop
 *
 * Lines on standard output:
 *   pty PATH                the line's serial port, first
 *   synced ID US            US: the tile's emulated time, in microseconds
 *   answer T BYTES RT_US    an answer sent: BYTES long, RT_US microseconds of
 *                           emulated time from the request's first byte on
 *                           the line to the end of the answer's last byte
 *   watchdog T              tile T's watchdog restarted it
 *   error T TEXT            the tile misbehaved on the line
 *   stack T BYTES           at quit: the deepest stack tile T used
 * (simavr's own messages go to standard error.)
 *
 * Environment: TILEHARNESS_TRACE set writes every byte on the line, each
 * command and the tiles' progress to standard error; TILEHARNESS_LOG sets
 * simavr's log level (1: errors, the default; 4: trace).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <avr_adc.h>
#include <avr_eeprom.h>
#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>

#define MAX_TILES 16
#define CHANNELS 52
#define PER_MUX 13
#define FREQ 14745600UL
#define SLICE_US 200
/* One byte on the line (10 bits at 230400 baud), in CPU cycles. */
#define BYTE_CYCLES (FREQ * 10 / 230400)
/* simavr's pace of received bytes (see feed). */
#define RX_BYTE_CYCLES (FREQ * 48 / 1000000)
#define QLEN 4096
#define MAX_SYNCS 16

static FILE *out;

struct sync {
	unsigned long long scans;
	char id[32];
};

struct tile {
	avr_t *avr;
	int addr;
	/* Voltages set (staged), committed by the next sync or reset (pending),
	 * and read by the scan in progress (current). */
	unsigned staged[CHANNELS], pending[CHANNELS], current[CHANNELS];
	int select;
	unsigned long long scans;
	struct sync syncs[MAX_SYNCS];
	int nsyncs;
	avr_irq_t *adc, *uart_in;
	int xoff;
	/* Bytes on their way to the tile's receiver, each with the cycle
	 * from which it is on the line and whether the Pi sent it. */
	struct {
		unsigned char b, pi;
		unsigned long long at;
	} q[QLEN];
	int qh, qt;
	unsigned long long last_in;  /* cycle of the last byte put on its RX */
	int last_pi;                  /* and whether the Pi sent it */
	unsigned long long req_start; /* cycle the current request began */
	unsigned long long answering; /* req_start when the line was taken */
	int de;
	unsigned long long last_out;
	int sent; /* bytes of the answer in progress */
	int muted, drop, dropping, corrupt, corrupting;
	int wdrf;
	unsigned min_sp; /* the stack's deepest point since power-up */
};

static struct tile tiles[MAX_TILES];
static int ntiles;
static int master = -1;
static int echo;
/* The cycle at which a tile last released the line. The Pi's requests go on
 * the line no sooner than PI_TURNAROUND after it: when the emulation runs
 * behind the wall clock, the Pi's next request would otherwise reach the
 * tiles in the same emulated instant as the answer before it, which no
 * Linux serial driver achieves. */
static unsigned long long line_quiet;
#define PI_TURNAROUND (FREQ * 200 / 1000000)
static int trace; /* TILEHARNESS_TRACE set: every byte on stderr */

static void put_line(int fd, const unsigned char *b, int n)
{
	while (n > 0) {
		ssize_t k = write(fd, b, n);
		if (k < 0) {
			if (errno == EAGAIN || errno == EINTR) {
				usleep(100);
				continue;
			}
			perror("tileharness: pty write");
			exit(1);
		}
		b += k;
		n -= k;
	}
}

static void enqueue(struct tile *t, unsigned char b, int pi, unsigned long long at)
{
	int h = (t->qh + 1) % QLEN;
	if (h == t->qt) {
		fprintf(out, "error %d receive queue overflow\n", t->addr);
		return;
	}
	t->q[t->qh].b = b;
	t->q[t->qh].pi = pi;
	t->q[t->qh].at = at;
	t->qh = h;
}

static void feed(struct tile *t)
{
	/* One byte per byte time, as the line delivers them. simavr's UART
	 * takes 47 us per byte at 230400 baud (it counts a parity bit), a
	 * little longer than the line's 43 us: the slower pace keeps its
	 * 64-byte input FIFO from filling. (Its XOFF signal is only lowered
	 * when the program reads UCSR0A, which an interrupt-driven receiver
	 * need not do.) */
	if (t->qt != t->qh && !t->xoff && t->avr->cycle - t->last_in >= RX_BYTE_CYCLES &&
	    t->avr->cycle >= t->q[t->qt].at) {
		if (t->q[t->qt].pi && (!t->last_pi || t->avr->cycle - t->last_in > 2 * RX_BYTE_CYCLES))
			t->req_start = t->avr->cycle;
		t->last_pi = t->q[t->qt].pi;
		t->last_in = t->avr->cycle;
		if (trace)
			fprintf(stderr, "%llu rx %d %02x\n", (unsigned long long)t->avr->cycle, t->addr, t->q[t->qt].b);
		avr_raise_irq(t->uart_in, t->q[t->qt].b);
		t->qt = (t->qt + 1) % QLEN;
	}
}

static void put_adc(struct tile *t)
{
	for (int m = 0; m < 4; m++) {
		int ch = m * PER_MUX + t->select;
		avr_raise_irq(t->adc + m, ch < CHANNELS ? t->current[ch] : 0);
	}
}

static void on_portb(struct avr_irq_t *irq, uint32_t v, void *param)
{
	(void)irq;
	struct tile *t = param;
	int s = v & 0x0F;
	if (s == 0 && t->select != 0) {
		t->scans++;
		memcpy(t->current, t->pending, sizeof t->current);
		for (int i = 0; i < t->nsyncs;) {
			if (t->scans >= t->syncs[i].scans) {
				fprintf(out, "synced %s %llu\n", t->syncs[i].id,
					(unsigned long long)t->avr->cycle * 1000000ULL / FREQ);
				t->syncs[i] = t->syncs[--t->nsyncs];
			} else {
				i++;
			}
		}
	}
	t->select = s;
	put_adc(t);
}

static void on_portd(struct avr_irq_t *irq, uint32_t v, void *param)
{
	(void)irq;
	struct tile *t = param;
	int de = (v >> 2) & 1;
	if (de == t->de)
		return;
	t->de = de;
	if (de) {
		/* The request answered began before the line was taken;
		 * when the emulation runs behind the wall clock, the next
		 * request may arrive before the line is released. */
		t->answering = t->req_start;
		return;
	}
	if (t->sent > 0) {
		if (t->avr->cycle < t->last_out + BYTE_CYCLES)
			fprintf(out, "error %d line released %llu cycles after the last byte began, before it was out\n",
				t->addr, t->avr->cycle - t->last_out);
		unsigned long long rt = t->avr->cycle - t->answering;
		fprintf(out, "answer %d %d %llu\n", t->addr, t->sent, rt * 1000000ULL / FREQ);
	}
	t->sent = 0;
	t->dropping = 0;
	t->corrupting = 0;
	if (t->avr->cycle > line_quiet)
		line_quiet = t->avr->cycle;
}

static void on_uart_out(struct avr_irq_t *irq, uint32_t v, void *param)
{
	(void)irq;
	struct tile *t = param;
	unsigned char b = v;
	if (!t->de)
		fprintf(out, "error %d byte %02x sent with the transceiver disabled\n", t->addr, b);
	if (t->sent == 0) {
		t->dropping = t->drop;
		t->drop = 0;
		t->corrupting = t->corrupt;
		t->corrupt = 0;
	}
	if (t->corrupting && t->sent == 5)
		b ^= 0x01;
	if (trace)
		fprintf(stderr, "%llu tx %d %02x\n", (unsigned long long)t->avr->cycle, t->addr, b);
	t->sent++;
	t->last_out = t->avr->cycle;
	if (t->muted || t->dropping)
		return;
	put_line(master, &b, 1);
	for (int i = 0; i < ntiles; i++) /* the other tiles hear it too */
		if (&tiles[i] != t)
			enqueue(&tiles[i], b, 0, t->avr->cycle);
}

static void on_xoff(struct avr_irq_t *irq, uint32_t v, void *param)
{
	(void)irq;
	((struct tile *)param)->xoff = v;
}

static void power_up(struct tile *t)
{
	if (!t->min_sp)
		t->min_sp = t->avr->ramend;
	memcpy(t->current, t->pending, sizeof t->current);
	t->select = 0;
	t->de = 0;
	t->sent = 0;
	t->xoff = 0;
	put_adc(t);
}

static struct tile *find(int addr)
{
	for (int i = 0; i < ntiles; i++)
		if (tiles[i].addr == addr)
			return &tiles[i];
	return NULL;
}

static void start_tile(struct tile *t, const char *elf, int boots, unsigned mv)
{
	elf_firmware_t fw = {0};
	if (elf_read_firmware(elf, &fw) != 0) {
		fprintf(stderr, "tileharness: cannot read %s\n", elf);
		exit(1);
	}
	t->avr = avr_make_mcu_by_name("atmega328p");
	if (!t->avr) {
		fprintf(stderr, "tileharness: simavr has no atmega328p\n");
		exit(1);
	}
	avr_init(t->avr);
	avr_load_firmware(t->avr, &fw);
	t->avr->frequency = FREQ;
	t->avr->vcc = t->avr->avcc = t->avr->aref = 5000;
	t->avr->log = getenv("TILEHARNESS_LOG") ? atoi(getenv("TILEHARNESS_LOG")) : 1;

	unsigned char ee[3] = {t->addr, boots & 0xFF, (boots >> 8) & 0xFF};
	avr_eeprom_desc_t d = {.ee = ee, .offset = 0, .size = sizeof ee};
	avr_ioctl(t->avr, AVR_IOCTL_EEPROM_SET, &d);

	uint32_t flags = 0; /* no console echo, no sleeping in the UART */
	avr_ioctl(t->avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);

	t->adc = avr_io_getirq(t->avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0);
	t->uart_in = avr_io_getirq(t->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
	avr_irq_register_notify(avr_io_getirq(t->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), on_uart_out, t);
	avr_irq_register_notify(avr_io_getirq(t->avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), on_xoff, t);
	avr_irq_register_notify(avr_io_getirq(t->avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_REG_PORT), on_portb, t);
	avr_irq_register_notify(avr_io_getirq(t->avr, AVR_IOCTL_IOPORT_GETIRQ('D'), IOPORT_IRQ_REG_PORT), on_portd, t);
	for (int c = 0; c < CHANNELS; c++)
		t->staged[c] = t->pending[c] = mv;
	power_up(t);
}

/* MCUSR, and its watchdog reset flag: simavr sets it when the watchdog
 * resets the chip, and the firmware clears it at start. */
#define MCUSR_ADDR 0x54
#define WDRF 0x08
/* The stack pointer. */
#define SPL_ADDR 0x5D
#define SPH_ADDR 0x5E

static void run_tile(struct tile *t, unsigned long long until)
{
	while (t->avr->cycle < until) {
		feed(t);
		int st = avr_run(t->avr);
		if (st == cpu_Crashed || st == cpu_Done) {
			fprintf(out, "error %d stopped (simavr state %d)\n", t->addr, st);
			fflush(out);
			exit(1);
		}
		unsigned sp = t->avr->data[SPL_ADDR] | t->avr->data[SPH_ADDR] << 8;
		if (sp < t->min_sp && sp > 0x100) /* 0: before the start-up code sets it */
			t->min_sp = sp;
		int wdrf = t->avr->data[MCUSR_ADDR] & WDRF;
		if (wdrf && !t->wdrf) {
			power_up(t);
			fprintf(out, "watchdog %d\n", t->addr);
		}
		t->wdrf = wdrf;
	}
}

static void hang(struct tile *t)
{
	/* An endless "rjmp ." at the top of flash, and the program counter
	 * sent there: the main loop never comes back, interrupts still run. */
	uint32_t at = t->avr->flashend - 1;
	t->avr->flash[at] = 0xFF;
	t->avr->flash[at + 1] = 0xCF;
	t->avr->pc = at;
}

static int command(char *line)
{
	char cmd[16], id[32];
	int a = 0, ch = 0;
	unsigned v = 0;
	int n = sscanf(line, "%15s %d %d %u", cmd, &a, &ch, &v);
	if (n < 1)
		return 1;
	if (trace)
		fprintf(stderr, "command %s", line);
	if (!strcmp(cmd, "quit")) {
		for (int i = 0; i < ntiles; i++)
			fprintf(out, "stack %d %u\n", tiles[i].addr, tiles[i].avr->ramend - tiles[i].min_sp);
		return 0;
	}
	struct tile *t = find(a);
	if (n < 2 || !t) {
		fprintf(out, "error %d no such tile: %s", a, line);
		return 1;
	}
	if (strcmp(cmd, "set"))
		memcpy(t->pending, t->staged, sizeof t->pending);
	if (!strcmp(cmd, "set") && n == 4 && ch >= 0 && ch < CHANNELS) {
		t->staged[ch] = v;
	} else if (!strcmp(cmd, "sync") && sscanf(line, "%*s %*d %d %31s", &ch, id) == 2 && t->nsyncs < MAX_SYNCS) {
		struct sync *s = &t->syncs[t->nsyncs++];
		s->scans = t->scans + ch;
		strcpy(s->id, id);
	} else if (!strcmp(cmd, "reset")) {
		avr_reset(t->avr);
		power_up(t);
	} else if (!strcmp(cmd, "hang")) {
		hang(t);
	} else if (!strcmp(cmd, "mute")) {
		t->muted = 1;
	} else if (!strcmp(cmd, "unmute")) {
		t->muted = 0;
	} else if (!strcmp(cmd, "drop")) {
		t->drop = 1;
	} else if (!strcmp(cmd, "corrupt")) {
		t->corrupt = 1;
	} else {
		fprintf(out, "error %d bad command: %s", a, line);
	}
	return 1;
}

static unsigned long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

static int open_line(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) || unlockpt(m)) {
		perror("tileharness: pseudo-terminal");
		exit(1);
	}
	/* Hold the slave open, raw, so the line stays up between the
	 * daemon's opens and no byte is ever echoed or translated. */
	int s = open(ptsname(m), O_RDWR | O_NOCTTY);
	struct termios tio;
	if (s < 0 || tcgetattr(s, &tio)) {
		perror("tileharness: pseudo-terminal slave");
		exit(1);
	}
	cfmakeraw(&tio);
	tcsetattr(s, TCSANOW, &tio);
	fcntl(m, F_SETFL, fcntl(m, F_GETFL) | O_NONBLOCK);
	fprintf(out, "pty %s\n", ptsname(m));
	return m;
}

int main(int argc, char **argv)
{
	/* Keep standard output for this program's lines; simavr prints
	 * its own on stdout, sent to stderr instead. */
	int fd = dup(1);
	dup2(2, 1);
	out = fdopen(fd, "w");
	setvbuf(out, NULL, _IOLBF, 0);

	trace = getenv("TILEHARNESS_TRACE") != NULL;
	unsigned mv = 2500;
	int opt;
	while ((opt = getopt(argc, argv, "ev:")) != -1) {
		switch (opt) {
		case 'e':
			echo = 1;
			break;
		case 'v':
			mv = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: tileharness [-e] [-v MV] FIRMWARE.elf ADDR[:BOOTS]...\n");
			return 2;
		}
	}
	if (argc - optind < 2 || argc - optind - 1 > MAX_TILES) {
		fprintf(stderr, "usage: tileharness [-e] [-v MV] FIRMWARE.elf ADDR[:BOOTS]...\n");
		return 2;
	}
	const char *elf = argv[optind];
	master = open_line();
	for (int i = optind + 1; i < argc; i++) {
		int boots = 0;
		struct tile *t = &tiles[ntiles++];
		if (sscanf(argv[i], "%d:%d", &t->addr, &boots) < 1 || t->addr < 1 || t->addr > 247) {
			fprintf(stderr, "tileharness: bad tile %s\n", argv[i]);
			return 2;
		}
		start_tile(t, elf, boots, mv);
	}

	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	char cmdbuf[4096];
	int cmdn = 0;
	unsigned long long t0 = now_us(), emulated = 0;
	for (;;) {
		emulated += SLICE_US;
		unsigned long long until = emulated * FREQ / 1000000ULL;
		for (int i = 0; i < ntiles; i++)
			run_tile(&tiles[i], until);
		if (trace && emulated % 50000 == 0)
			for (int i = 0; i < ntiles; i++)
				fprintf(stderr, "tick %llu tile %d cycle %llu queue %d xoff %d state %d pc %x\n", emulated, tiles[i].addr,
					(unsigned long long)tiles[i].avr->cycle, (tiles[i].qh - tiles[i].qt + QLEN) % QLEN, tiles[i].xoff,
					tiles[i].avr->state, tiles[i].avr->pc);

		long ahead = (long)(emulated - (now_us() - t0));
		struct pollfd p[2] = {{.fd = 0, .events = POLLIN}, {.fd = master, .events = POLLIN}};
		if (poll(p, 2, ahead > 1000 ? ahead / 1000 : 0) < 0 && errno != EINTR) {
			perror("tileharness: poll");
			return 1;
		}
		unsigned char b[256];
		ssize_t k;
		while ((k = read(master, b, sizeof b)) > 0) {
			if (echo)
				put_line(master, b, k);
			unsigned long long at = until;
			if (at < line_quiet + PI_TURNAROUND)
				at = line_quiet + PI_TURNAROUND;
			for (int i = 0; i < ntiles; i++)
				for (ssize_t j = 0; j < k; j++)
					enqueue(&tiles[i], b[j], 1, at);
		}
		while ((k = read(0, cmdbuf + cmdn, sizeof cmdbuf - 1 - cmdn)) > 0) {
			cmdn += k;
			cmdbuf[cmdn] = 0;
			char *nl;
			while ((nl = strchr(cmdbuf, '\n')) != NULL) {
				*nl = 0;
				char line[sizeof cmdbuf + 2];
				snprintf(line, sizeof line, "%s\n", cmdbuf);
				int n = nl + 1 - cmdbuf;
				memmove(cmdbuf, nl + 1, cmdn - n + 1);
				cmdn -= n;
				if (!command(line))
					return 0;
			}
			if (cmdn == (int)sizeof cmdbuf - 1)
				cmdn = 0;
		}
		if (k == 0) /* standard input closed: the test is over */
			return 0;
	}
}
