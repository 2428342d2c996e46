/*
 * Sensor tile firmware for an ATmega328P (14.7456 MHz crystal, 5 V).
 *
 * It scans the hall sensors through four CD74HC4067 multiplexers, classifies
 * each channel (0, 1 or 2 pieces; magnet polarity to colour) with
 * hysteresis, debounces, numbers the changes in a log, and answers the Pi's
 * frames on the RS-485 line. The wire protocol is firmware/protocol (Go);
 * the logic mirrors firmware/tile, the reference model that the
 * differential test (firmware/avrsim) holds this program to, byte for byte.
 *
 * Wiring (rev B):
 *   PD0/PD1  UART RXD/TXD to the RS-485 transceiver's RO/DI
 *   PD2      transceiver DE and /RE (tied): high while the tile sends
 *   PB0..PB3 multiplexer select lines S0..S3 (shared by all four)
 *   PC0..PC3 ADC0..ADC3, multiplexer outputs (mux m -> ADCm)
 *
 * EEPROM (see eeprom.h): the tile's address, the boot counter and the
 * classification thresholds set by the Pi's calibration command.
 */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <stdint.h>
#include <string.h>
#include <util/crc16.h>
#include <util/delay.h>

#include "eeprom.h"

#define MUXES 4
#define PER_MUX 13
#define CHANNELS (MUXES * PER_MUX)
#define LOG_LEN 64
#define DEBOUNCE 3

#define BAUD 230400UL

/* firmware/protocol */
#define START 0xA5
#define HEADER_LEN 5
#define CRC_LEN 2
#define MAX_PAYLOAD 200
#define MAX_FRAME (HEADER_LEN + MAX_PAYLOAD + CRC_LEN)
#define MAX_RECORDS ((MAX_PAYLOAD - 4) / 4)
enum {
	KIND_POLL = 1,
	KIND_SNAPSHOT_REQ,
	KIND_CHANGES,
	KIND_SNAPSHOT,
	KIND_CALIBRATE,
	KIND_CALIBRATION,
};
#define CALIBRATION_LEN 7
#define CALIBRATE_LEN (CALIBRATION_LEN + 1)
#define CAL_REBASELINE 0x01

/* The same defaults as firmware/tile.DefaultClassifier, in 12-bit counts. */
static struct thresholds cal = {180, 420, 30, CAL_COLOURS | 0 | 2 << 2};

static uint8_t addr;
static uint16_t boot;

static uint16_t base[CHANNELS];
static uint16_t sample[CHANNELS];
static uint8_t stable[CHANNELS], cand[CHANNELS], level[CHANNELS];
static uint8_t rebaseline;

static struct change {
	uint16_t num;
	uint8_t ch, reading;
} log_recs[LOG_LEN];
static uint16_t seq;
static uint8_t log_n;

static uint8_t out[MAX_FRAME];
static uint8_t in[MAX_FRAME];
static uint8_t in_n;

/* Bytes from the UART's receive interrupt; 64 bytes is 2.8 ms of line.
 * A byte that follows a silence of more than 3.5 characters is marked
 * (RX_GAP): whatever partial frame came before it is dropped, so that a
 * garbled frame overheard from another tile, whose length field can claim
 * bytes that never come, does not swallow the Pi's next request. Timer 1
 * counts at F_CPU/64 = 230400 Hz: a character (10 bits) is 10 ticks. */
#define RX_LEN 64
#define RX_GAP 0x100
#define GAP_TICKS 35
static volatile uint16_t rx[RX_LEN];
static volatile uint8_t rx_head, rx_tail;
static uint16_t rx_last;

void early_init(void) __attribute__((naked, used, section(".init3")));
void early_init(void)
{
	MCUSR = 0;
	wdt_disable(); /* a watchdog reset leaves the watchdog running */
}

ISR(USART_RX_vect)
{
	uint16_t b = UDR0;
	uint16_t now = TCNT1;
	/* A character's stop bit ends 10 ticks after the previous one's.
	 * (A silence of a whole multiple of the timer's 284 ms period looks
	 * like none; a partial frame is then kept, as without the rule.) */
	if ((uint16_t)(now - rx_last) > GAP_TICKS + 10)
		b |= RX_GAP;
	rx_last = now;
	uint8_t h = (rx_head + 1) % RX_LEN;
	if (h != rx_tail) {
		rx[rx_head] = b;
		rx_head = h;
	}
}

static uint16_t crc16(const uint8_t *b, uint8_t n)
{
	uint16_t crc = 0xFFFF;
	while (n--)
		crc = _crc_xmodem_update(crc, *b++);
	return crc;
}

/* Classify mirrors firmware/tile.Classifier.Classify. */
static uint8_t classify(uint16_t s, uint16_t b, uint8_t prev)
{
	int16_t d = (int16_t)s - (int16_t)b;
	uint8_t north = d >= 0;
	if (d < 0)
		d = -d;
	int16_t one = cal.one, two = cal.two, h = cal.hysteresis;
	switch (prev & 7) {
	case 0:
		one += h;
		two += h;
		break;
	case 1:
		one -= h;
		two += h;
		break;
	default:
		one -= h;
		two -= h;
	}
	uint8_t n;
	if (d >= two)
		n = 2;
	else if (d >= one)
		n = 1;
	else
		return 0;
	if (!(cal.colours & CAL_COLOURS))
		return n;
	uint8_t col = north ? (cal.colours & 3) : (cal.colours >> 2) & 3;
	uint8_t r = n | 1 << 3 | col << 4;
	if (n >= 2)
		r |= col << 6;
	return r;
}

static void log_add(uint8_t ch, uint8_t r)
{
	seq++;
	struct change *c = &log_recs[seq % LOG_LEN];
	c->num = seq;
	c->ch = ch;
	c->reading = r;
	if (log_n < LOG_LEN)
		log_n++;
}

/* Debounce mirrors firmware/tile.Debouncer.Feed. */
static void debounce(uint8_t ch, uint8_t r)
{
	if (r == stable[ch]) {
		if (level[ch] > 0)
			level[ch]--;
		return;
	}
	if (r == cand[ch] && level[ch] > 0) {
		level[ch]++;
	} else {
		cand[ch] = r;
		level[ch] = 1;
	}
	if (level[ch] >= DEBOUNCE) {
		stable[ch] = r;
		level[ch] = 0;
		log_add(ch, r);
	}
}

static void scan_done(void)
{
	if (rebaseline) {
		memcpy(base, sample, sizeof base);
		rebaseline = 0;
		return;
	}
	for (uint8_t ch = 0; ch < CHANNELS; ch++)
		debounce(ch, classify(sample[ch], base[ch], stable[ch]));
}

/* Frame building. */
static uint8_t out_n;

static void begin(uint8_t kind, uint8_t tag)
{
	out[0] = START;
	out[1] = addr;
	out[2] = kind;
	out[3] = tag;
	out_n = HEADER_LEN;
}

static void put8(uint8_t b) { out[out_n++] = b; }

static void put16(uint16_t v)
{
	put8(v >> 8);
	put8(v);
}

static void finish(void)
{
	out[4] = out_n - HEADER_LEN;
	put16(crc16(out + 1, out_n - 1));
}

static void snapshot(uint8_t tag)
{
	begin(KIND_SNAPSHOT, tag);
	put16(boot);
	put16(seq);
	put8(CHANNELS);
	for (uint8_t ch = 0; ch < CHANNELS; ch++)
		put8(stable[ch]);
	finish();
}

/* changes answers a poll for change want on, mirroring
 * firmware/tile.Log.Since; it returns 0 when the log no longer holds want. */
static uint8_t changes(uint8_t tag, uint16_t want)
{
	uint16_t ahead = seq - want + 1;
	if (want != (uint16_t)(seq + 1) && (ahead > log_n || ahead == 0))
		return 0;
	begin(KIND_CHANGES, tag);
	put16(boot);
	put16(seq);
	if (want != (uint16_t)(seq + 1)) {
		for (uint16_t n = want, k = 0; k < MAX_RECORDS; n++, k++) {
			struct change *c = &log_recs[n % LOG_LEN];
			put16(c->num);
			put8(c->ch);
			put8(c->reading);
			if (n == seq)
				break;
		}
	}
	finish();
	return 1;
}

static void calibration(uint8_t tag)
{
	begin(KIND_CALIBRATION, tag);
	put16(cal.one);
	put16(cal.two);
	put16(cal.hysteresis);
	put8(cal.colours);
	finish();
}

static uint16_t get16(const uint8_t *p) { return (uint16_t)p[0] << 8 | p[1]; }

/* calibrate takes new thresholds when they are consistent, stores them, and
 * answers with the thresholds in force. */
static uint8_t calibrate(uint8_t tag, const uint8_t *p, uint8_t n)
{
	if (n == CALIBRATE_LEN) {
		struct thresholds t = {get16(p), get16(p + 2), get16(p + 4), p[6]};
		if (!thresholds_valid(&t))
			return 0;
		cal = t;
		store_thresholds(&cal);
		if (p[7] & CAL_REBASELINE)
			rebaseline = 1;
	} else if (n != 0) {
		return 0;
	}
	calibration(tag);
	return 1;
}

/* answer builds the answer to frame f (n bytes, CRC checked) into out;
 * it returns 0 when the frame asks nothing of this tile. */
static uint8_t answer(const uint8_t *f)
{
	if (f[1] != addr)
		return 0;
	uint8_t tag = f[3], n = f[4];
	const uint8_t *p = f + HEADER_LEN;
	switch (f[2]) {
	case KIND_POLL:
		if (n != 2)
			return 0;
		if (!changes(tag, get16(p)))
			snapshot(tag);
		return 1;
	case KIND_SNAPSHOT_REQ:
		snapshot(tag);
		return 1;
	case KIND_CALIBRATE:
		return calibrate(tag, p, n);
	}
	return 0;
}

static void send(void)
{
	PORTD |= _BV(PD2);
	for (uint8_t i = 0; i < out_n; i++) {
		while (!(UCSR0A & _BV(UDRE0)))
			;
		/* Clear TXC0 (by writing it 1) with each byte, so that it
		 * means the last byte's stop bit is out and no earlier one's. */
		UCSR0A = _BV(U2X0) | _BV(TXC0);
		UDR0 = out[i];
	}
#ifndef FAULT_EARLY_RELEASE /* a broken build, to prove the harness sees it */
	while (!(UCSR0A & _BV(TXC0))) /* until the last stop bit is out */
		;
#endif
	PORTD &= ~_BV(PD2);
}

/* decode mirrors firmware/protocol.Decode on in[:in_n]: it returns the
 * length of a good frame at in[0] (after dropping what precedes it), or 0,
 * having dropped whatever can never start a good frame. */
static uint8_t decode(void)
{
	for (;;) {
		uint8_t i = 0;
		while (i < in_n && in[i] != START)
			i++;
		if (i > 0) {
			memmove(in, in + i, in_n - i);
			in_n -= i;
		}
		if (in_n < HEADER_LEN)
			return 0;
		uint8_t l = in[4];
		uint8_t bad = l > MAX_PAYLOAD;
		if (!bad) {
			if (in_n < HEADER_LEN + l + CRC_LEN)
				return 0;
			uint8_t fl = HEADER_LEN + l;
			bad = crc16(in + 1, fl - 1) != get16(in + fl) ||
			      in[2] < KIND_POLL || in[2] > KIND_CALIBRATION;
			if (!bad)
				return fl + CRC_LEN;
		}
		/* drop the bad start byte and look again */
		memmove(in, in + 1, in_n - 1);
		in_n--;
	}
}

/* service takes the received bytes one by one and answers each frame
 * as soon as its last byte is in. */
static void service(void)
{
	while (rx_tail != rx_head) {
		uint16_t b = rx[rx_tail];
		rx_tail = (rx_tail + 1) % RX_LEN;
		if (b & RX_GAP)
			in_n = 0;
		in[in_n++] = b;
		uint8_t n;
		while ((n = decode()) != 0) {
			if (answer(in))
				send();
			in_n -= n;
			memmove(in, in + n, in_n);
		}
		if (in_n == MAX_FRAME) /* cannot be: decode drops bad lengths */
			in_n = 0;
	}
}

static uint16_t adc_read(uint8_t m)
{
	ADMUX = _BV(REFS0) | m; /* AVcc reference */
	ADCSRA |= _BV(ADSC);
	while (ADCSRA & _BV(ADSC))
		service();
	return ADC << 2; /* 12-bit counts, as the thresholds are */
}

static void scan(uint16_t *dst)
{
	for (uint8_t a = 0; a < PER_MUX; a++) {
		PORTB = (PORTB & 0xF0) | a;
		_delay_us(5); /* multiplexer and sensor output settle */
		for (uint8_t m = 0; m < MUXES; m++)
			dst[m * PER_MUX + a] = adc_read(m);
		wdt_reset();
	}
}

int main(void)
{
	DDRB |= 0x0F;
	PORTD &= ~_BV(PD2);
	DDRD |= _BV(PD2);
	/* RXD's pull-up: the transceiver's receiver output floats while DE/RE
	 * is high, and must not read as bytes. */
	PORTD |= _BV(PD0);

	UCSR0A = _BV(U2X0); /* before UBRR0: simavr takes the rate on its write */
	UBRR0 = F_CPU / 8 / BAUD - 1;
	UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
	UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);

	TCCR1B = _BV(CS11) | _BV(CS10); /* free-running, F_CPU/64 */

	ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0); /* /128: 115 kHz */
	DIDR0 = 0x0F;

	addr = load_addr();
	boot = next_boot();
	load_thresholds(&cal);

	wdt_enable(WDTO_250MS);
	sei();

	scan(base); /* power up with the board empty */
	for (;;) {
		scan(sample);
		scan_done();
		service();
	}
}
