/*
 * The tile's EEPROM: what survives a reset or a power cut.
 *
 *   offset  size  what
 *   0       1     address on the line, 1..247 (0xFF, erased: 1)
 *   1       2     boot counter, little-endian: incremented at each start,
 *                 sent as the Boot of every answer
 *   3       1     0x5A when offsets 4..10 hold thresholds
 *   4       2     one: deviation (12-bit counts) from which a site holds one piece
 *   6       2     two: from which it holds two
 *   8       2     hysteresis
 *   10      1     colours: bit 7 colours read; bits 0-1 north colour,
 *                 bits 2-3 south colour (0 Yellow, 1 Blue, 2 Red, 3 Green)
 *
 * avrdude -c linuxspi -p m328p -U eeprom:w:ADDR:m sets the address alone.
 */
#ifndef TILE_EEPROM_H
#define TILE_EEPROM_H

#include <avr/eeprom.h>
#include <stdint.h>

#define EE_ADDR ((uint8_t *)0)
#define EE_BOOT ((uint16_t *)1)
#define EE_MAGIC ((uint8_t *)3)
#define EE_THRESHOLDS ((void *)4)
#define THRESHOLDS_MAGIC 0x5A

#define CAL_COLOURS 0x80

struct thresholds {
	uint16_t one, two, hysteresis;
	uint8_t colours;
};

/* thresholds_valid mirrors firmware/tile.Classifier.Validate. */
static inline uint8_t thresholds_valid(const struct thresholds *t)
{
	return t->hysteresis < t->one && t->one < t->two && t->two <= 4095 &&
	       (t->colours & 0x70) == 0;
}

/* Tile addresses, as firmware/protocol bounds them. */
#define MIN_ADDR 1
#define MAX_ADDR 247

static inline uint8_t load_addr(void)
{
	uint8_t a = eeprom_read_byte(EE_ADDR);
	return a >= MIN_ADDR && a <= MAX_ADDR ? a : MIN_ADDR;
}

static inline uint16_t next_boot(void)
{
	uint16_t b = eeprom_read_word(EE_BOOT) + 1;
	eeprom_update_word(EE_BOOT, b);
	return b;
}

static inline void load_thresholds(struct thresholds *t)
{
	struct thresholds s;
	if (eeprom_read_byte(EE_MAGIC) != THRESHOLDS_MAGIC)
		return;
	eeprom_read_block(&s, EE_THRESHOLDS, sizeof s);
	if (thresholds_valid(&s))
		*t = s;
}

static inline void store_thresholds(const struct thresholds *t)
{
	eeprom_update_block(t, EE_THRESHOLDS, sizeof *t);
	eeprom_update_byte(EE_MAGIC, THRESHOLDS_MAGIC);
}

#endif
