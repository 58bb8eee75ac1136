// Peer driver for Go's image.DecodeConfig with the standard and golang.org/x/image decoders.
// Commands as the other peers (Benchmarks/compare.py): time MS FILE..., minbytes FILE...
package main

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"strconv"
	"time"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"
)

func probe(data []byte) (int, int, bool) {
	config, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return -1, -1, false
	}
	return config.Width, config.Height, true
}

var suffixes = [][]byte{
	bytes.Repeat([]byte{'0'}, 16), bytes.Repeat([]byte{0xFF}, 16),
	{0x9A, 0x11, 0xE3, 0x42, 0x07, 0xC8, 0x5D, 0x2B, 0x76, 0xF0, 0x38, 0x81, 0x4E, 0xD9, 0x13, 0x6C}, bytes.Repeat([]byte{1}, 16),
}

// robust: the answer on data[:n] alone and followed by each suffix.
func robust(data []byte, n, w, h int) bool {
	if a, b, ok := probe(data[:n]); !ok || a != w || b != h {
		return false
	}
	for _, suffix := range suffixes {
		buffer := append(append([]byte{}, data[:n]...), suffix...)
		if a, b, ok := probe(buffer); !ok || a != w || b != h {
			return false
		}
	}
	return true
}

func main() {
	command := os.Args[1]
	first := 3
	if command == "minbytes" || command == "robustbytes" {
		first = 2
	}
	for _, path := range os.Args[first:] {
		data, _ := os.ReadFile(path)
		w, h, ok := probe(data)
		if !ok {
			fmt.Printf("%s\t-1\t-1\t-1\n", path)
			continue
		}
		if command == "time" {
			budget, _ := strconv.ParseFloat(os.Args[2], 64)
			start := time.Now()
			iterations := 0
			for float64(time.Since(start).Nanoseconds()) < budget*1e6 {
				for k := 0; k < 16; k++ {
					probe(data)
				}
				iterations += 16
			}
			fmt.Printf("%s\t%.1f\t%d\t%d\n", path, float64(time.Since(start).Nanoseconds())/float64(iterations), w, h)
		} else {
			low, high := 1, len(data)
			for low < high {
				middle := low + (high-low)/2
				a, b, ok := probe(data[:middle])
				same := ok && a == w && b == h
				if command == "robustbytes" {
					same = robust(data, middle, w, h)
				}
				if same {
					high = middle
				} else {
					low = middle + 1
				}
			}
			fmt.Printf("%s\t%d\t%d\t%d\n", path, low, w, h)
		}
	}
}
