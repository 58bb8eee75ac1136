// Peer driver for the Rust `imagesize` crate's blob_size (a pull parser over a whole buffer).
// Commands as the other peers (Benchmarks/compare.py): time MS FILE..., minbytes FILE...,
// repeat N FILE...
use std::time::Instant;

fn probe(data: &[u8]) -> Option<(usize, usize)> {
    imagesize::blob_size(data).ok().map(|s| (s.width, s.height))
}

const SUFFIXES: [[u8; 16]; 4] = [
    [b'0'; 16], [0xFF; 16],
    [0x9A, 0x11, 0xE3, 0x42, 0x07, 0xC8, 0x5D, 0x2B, 0x76, 0xF0, 0x38, 0x81, 0x4E, 0xD9, 0x13, 0x6C], [1; 16],
];

/// The answer on data[..n] alone and followed by each suffix: one that doesn't depend on
/// bytes not yet seen.
fn robust(data: &[u8], n: usize, answer: (usize, usize)) -> bool {
    if probe(&data[..n]) != Some(answer) { return false; }
    SUFFIXES.iter().all(|suffix| {
        let mut buffer = data[..n].to_vec();
        buffer.extend_from_slice(suffix);
        probe(&buffer) == Some(answer)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let command = args[1].as_str();
    if command == "repeat" {
        let count: usize = args[2].parse().unwrap();
        let files: Vec<Vec<u8>> = args[3..].iter().map(|p| std::fs::read(p).unwrap_or_default()).collect();
        let mut total = 0usize;
        for _ in 0..count {
            for data in &files {
                if let Some((w, _)) = probe(std::hint::black_box(data)) { total = total.wrapping_add(w); }
            }
        }
        println!("{}", total);
        return;
    }
    let first = if command == "minbytes" || command == "robustbytes" { 2 } else { 3 };
    for path in &args[first..] {
        let data = std::fs::read(path).unwrap_or_default();
        let Some((w, h)) = probe(&data) else { println!("{}\t-1\t-1\t-1", path); continue };
        if command == "time" {
            let budget: f64 = args[2].parse::<f64>().unwrap() * 1e6;
            let start = Instant::now();
            let mut iterations = 0u64;
            loop {
                for _ in 0..16 { std::hint::black_box(probe(std::hint::black_box(&data))); }
                iterations += 16;
                if (start.elapsed().as_nanos() as f64) >= budget { break; }
            }
            println!("{}\t{:.1}\t{}\t{}", path, start.elapsed().as_nanos() as f64 / iterations as f64, w, h);
        } else {
            let (mut low, mut high) = (1usize, data.len());
            while low < high {
                let middle = low + (high - low) / 2;
                let same = if command == "robustbytes" { robust(&data, middle, (w, h)) } else { probe(&data[..middle]) == Some((w, h)) };
                if same { high = middle } else { low = middle + 1 }
            }
            println!("{}\t{}\t{}\t{}", path, low, w, h);
        }
    }
}
