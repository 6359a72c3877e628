//! Proof files stored compressed: `NAME.lrat.zst`, a standard zstd frame
//! around the LRAT bytes, written by the trace ([`Compression::Zstd`]) and
//! read back by `verify` ([`open_proof`]), which knows a compressed file by
//! the frame's magic number whatever its name says — so a directory's
//! proofs compressed afterwards with `zstd` verify too, and `zstd -d`
//! gives any LRAT checker the plain file.
//!
//! Decompression adds nothing to what must be trusted: the checker checks
//! the bytes it is given against the claim's formula, which is stored
//! uncompressed and tied to the problem on its own; a decompressor that
//! went wrong gives a proof that fails, never a weaker claim that passes.
//!
//! The compressor is the reference zstd library (the `zstd` crate), at its
//! default level; what it saves on binary LRAT is measured in
//! docs/bench/lrat.md ("Proof size").

use std::{
    fs::File,
    io::{self, BufRead, BufReader, BufWriter, Read, Write},
};

pub use boardsat_solve::files::proof_dir::Compression;

/// The first four bytes of every zstd frame.
pub(crate) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// zstd's default level: fast enough to add little to a proof's writing,
/// and most of what higher levels save (docs/bench/lrat.md, "Proof size").
const LEVEL: i32 = 3;

/// A writer that stores what it is given into `file` as `compression`
/// says; [`ProofWriter::finish`] ends it.
///
/// # Errors
///
/// The compressor cannot be set up.
pub fn writer(compression: Compression, file: File) -> io::Result<ProofWriter> {
    let out = BufWriter::new(file);
    Ok(match compression {
        Compression::None => ProofWriter::Plain(out),
        Compression::Zstd => ProofWriter::Zstd(zstd::Encoder::new(out, LEVEL)?),
    })
}

/// A proof file being written ([`writer`]).
pub enum ProofWriter {
    /// Bytes as given.
    Plain(BufWriter<File>),
    /// Bytes through the zstd compressor.
    Zstd(zstd::Encoder<'static, BufWriter<File>>),
}

impl std::fmt::Debug for ProofWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ProofWriter::Plain(_) => "ProofWriter::Plain",
            ProofWriter::Zstd(_) => "ProofWriter::Zstd",
        })
    }
}

impl Write for ProofWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ProofWriter::Plain(w) => w.write(buf),
            ProofWriter::Zstd(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            ProofWriter::Plain(w) => w.write_all(buf),
            ProofWriter::Zstd(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            ProofWriter::Plain(w) => w.flush(),
            ProofWriter::Zstd(w) => w.flush(),
        }
    }
}

impl ProofWriter {
    /// Ends the file (the zstd frame's end included), on disk: its size.
    ///
    /// # Errors
    ///
    /// Writing or syncing failed.
    pub fn finish(self) -> io::Result<u64> {
        let mut out = match self {
            ProofWriter::Plain(w) => w,
            ProofWriter::Zstd(w) => w.finish()?,
        };
        out.flush()?;
        let file = out.get_ref();
        file.sync_all()?;
        Ok(file.metadata()?.len())
    }
}

/// The LRAT bytes of the proof file `file`: decompressed when it begins
/// with a zstd frame, as they are otherwise.
///
/// # Errors
///
/// The file cannot be read, or the decompressor cannot be set up.
pub fn open_proof(file: File) -> io::Result<Box<dyn Read + Send>> {
    let mut input = BufReader::with_capacity(1 << 16, file);
    let compressed = input.fill_buf()?.starts_with(&ZSTD_MAGIC);
    Ok(if compressed {
        Box::new(zstd::Decoder::with_buffer(input)?)
    } else {
        Box::new(input)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Seek, SeekFrom};

    fn round_trip(compression: Compression, bytes: &[u8]) -> (Vec<u8>, u64) {
        let mut file = tempfile::tempfile().unwrap();
        let mut w = writer(compression, file.try_clone().unwrap()).unwrap();
        w.write_all(bytes).unwrap();
        let size = w.finish().unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        let mut back = Vec::new();
        open_proof(file).unwrap().read_to_end(&mut back).unwrap();
        (back, size)
    }

    #[test]
    fn what_is_written_is_read_back_either_way() {
        let proof: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        for c in Compression::ALL {
            let (back, size) = round_trip(c, &proof);
            assert_eq!(back, proof, "{c:?}");
            match c {
                Compression::None => assert_eq!(size, proof.len() as u64),
                Compression::Zstd => assert!(size < proof.len() as u64 / 4, "{size}"),
            }
        }
    }

    #[test]
    fn short_and_empty_files_are_read_as_they_are() {
        for bytes in [&b""[..], b"a", b"(\xb5/"] {
            assert_eq!(round_trip(Compression::None, bytes).0, bytes);
        }
        assert_eq!(round_trip(Compression::Zstd, b"").0, b"");
    }

    #[test]
    fn a_damaged_frame_is_an_error_not_other_bytes() {
        let mut file = tempfile::tempfile().unwrap();
        let mut w = writer(Compression::Zstd, file.try_clone().unwrap()).unwrap();
        w.write_all(&[b'a'; 100_000]).unwrap();
        w.finish().unwrap();
        let len = file.metadata().unwrap().len();
        file.set_len(len - 3).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        let mut back = Vec::new();
        assert!(open_proof(file).unwrap().read_to_end(&mut back).is_err());
    }

    #[test]
    fn names() {
        assert_eq!(
            Compression::None.proof_file("claim-0001"),
            "claim-0001.lrat"
        );
        assert_eq!(
            Compression::Zstd.proof_file("claim-0001"),
            "claim-0001.lrat.zst"
        );
        assert_eq!(Compression::default(), Compression::None);
        for c in Compression::ALL {
            assert_eq!(Compression::from_name(c.name()), Some(c));
        }
    }
}
