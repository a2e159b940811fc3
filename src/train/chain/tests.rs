use super::*;
use crate::board::notation::setup_fen;
use crate::board::{game_end, RuleSet, Setup};
use crate::search::see::see_ge;
use crate::train::record::{header_for, RECORD_SIZE_V1};
use crate::util::rng::Rng;
use std::io::Cursor as IoCursor;

fn encode_vec(records: &[Raw], version: u32) -> Vec<u8> {
    let mut out = IoCursor::new(Vec::new());
    let n = encode(records.iter().copied(), version, &mut out).unwrap();
    assert_eq!(n, records.len() as u64);
    out.into_inner()
}

fn decode_vec(bytes: &[u8]) -> Result<Vec<Raw>, String> {
    let r = ChainReader::new(bytes, "t")?;
    r.collect()
}

fn round_trip(records: &[Raw], version: u32) -> Vec<u8> {
    let bytes = encode_vec(records, version);
    let h = read_header(&bytes, "t").unwrap();
    assert_eq!(h.version, version);
    assert_eq!(h.count, records.len() as u64);
    let back = decode_vec(&bytes).unwrap();
    assert_eq!(back.len(), records.len());
    for (i, (a, b)) in back.iter().zip(records).enumerate() {
        assert_eq!(a, b, "record {i}");
    }
    bytes
}

/// The flags `janggun datagen` gives a position with best move `best`
/// (`datagen::meta_of`).
fn flags_of(pos: &Position, best: Option<Move>, score: i16, adj: bool) -> Flags {
    let mut f = Flags::default();
    f.set(Flags::IN_CHECK, pos.in_check());
    f.set(
        Flags::CAPTURE,
        best.is_some_and(|m| !m.is_pass() && pos.piece_at(m.to()).is_some()),
    );
    let mut caps = MoveList::new();
    crate::board::legal_captures(pos, &mut caps);
    f.set(
        Flags::WINNING_CAPTURE,
        caps.as_slice().iter().any(|&m| see_ge(pos, m, 0)),
    );
    f.set(Flags::DECIDED, score.unsigned_abs() >= 19000);
    f.set(Flags::ADJUDICATED, adj);
    f
}

/// A self-play game as `janggun datagen` writes it: random legal moves
/// (the pass only when nothing else is legal) from setup pair `n`, each
/// position with its move as best, a wandering score, ply and clock from
/// the game, and the result from each side's view.
fn game(n: u64, plies: usize, rng: &mut Rng) -> Vec<Raw> {
    let fen = setup_fen(Setup::ALL[(n as usize / 4) % 4], Setup::ALL[n as usize % 4]);
    let mut pos = Position::from_fen(&fen, RuleSet::Janggi).unwrap();
    let mut kept = Vec::new();
    let mut score: i16 = (rng.below(200) as i16) - 100;
    let winner = rng.below(3);
    let adj = rng.below(2) == 0;
    for ply in 0..plies {
        if game_end(&pos).is_some() {
            break;
        }
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        let mut quiet = list.clone();
        quiet.retain(|m| !m.is_pass());
        let pick = if quiet.is_empty() { &list } else { &quiet };
        if pick.is_empty() {
            break;
        }
        let m = pick.as_slice()[rng.below(pick.len())];
        // Mostly small swings, now and then a jump or a decided score.
        score = match rng.below(40) {
            0 => 19990 - rng.below(30) as i16,
            1 => (rng.below(4000) as i16) - 2000,
            _ => -score + (rng.below(61) as i16) - 30,
        };
        let stm = pos.side_to_move();
        let result = match winner {
            1 => 1,
            w => 2 * ((w == 0) == (stm == Color::Cho)) as u8,
        };
        let s = Sample::from_position(&pos, score, result);
        let meta = Meta {
            flags: flags_of(&pos, Some(m), score, adj),
            ply: ply as u16,
            halfmove: pos.halfmove() as u16,
            best: Some(m),
        };
        kept.push(s.encode_with(&meta).unwrap());
        pos.make(m);
    }
    kept
}

fn games(count: u64, seed: u64) -> Vec<Raw> {
    let mut rng = Rng::new(seed);
    let mut all = Vec::new();
    for n in 0..count {
        let plies = 40 + rng.below(160);
        all.extend(game(n, plies, &mut rng));
    }
    all
}

/// Version-1 records: each game's positions with random gaps of up to
/// three plies, bytes 32..40 cleared.
fn v1_of(records: &[Raw], seed: u64) -> Vec<Raw> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut i = 0;
    while i < records.len() {
        let mut r = records[i];
        r[RECORD_SIZE_V1..].fill(0);
        out.push(r);
        i += 1 + if rng.below(4) == 0 { rng.below(3) } else { 0 };
    }
    out
}

/// How many entries of each kind (step, path, delta, full) a chained
/// file's blocks hold.
fn kinds(bytes: &[u8]) -> [usize; 4] {
    let mut k = [0; 4];
    let mut r = &bytes[HEADER_SIZE..];
    while !r.is_empty() {
        let n = read_varint(&mut r, false).unwrap().unwrap() as usize;
        let m = read_varint(&mut r, false).unwrap().unwrap() as usize;
        let s = read_varint(&mut r, false).unwrap().unwrap() as usize;
        let x = read_varint(&mut r, false).unwrap().unwrap() as usize;
        for &t in &r[4..4 + n] {
            k[(t & 3) as usize] += 1;
        }
        r = &r[4 + n + m + s + x..];
    }
    k
}

fn per_record(bytes: &[u8], n: usize) -> f64 {
    (bytes.len() - HEADER_SIZE) as f64 / n as f64
}

#[test]
fn self_play_games_round_trip_in_under_four_bytes_a_position() {
    let records = games(40, 7);
    assert!(records.len() > 3000);
    let bytes = round_trip(&records, VERSION);
    let k = kinds(&bytes);
    // Every position but a game's first (or a block's) follows by its
    // best move.
    let blocks = records.len().div_ceil(MAX_BLOCK);
    assert!((40..40 + blocks).contains(&k[FULL as usize]), "{k:?}");
    assert_eq!(k[STEP as usize], records.len() - k[FULL as usize], "{k:?}");
    let each = per_record(&bytes, records.len());
    assert!(each < 4.0, "{each} bytes a position");
}

#[test]
fn version_1_positions_with_gaps_follow_by_paths() {
    let records = v1_of(&games(30, 8), 9);
    let bytes = round_trip(&records, VERSION_V1);
    let k = kinds(&bytes);
    assert_eq!(k[STEP as usize], 0);
    assert_eq!(k[FULL as usize], 30, "{k:?}");
    // The gaps are at most three plies: a path joins them, unless a piece
    // went and came back (then the points that changed are stored).
    assert!(k[PATH as usize] * 100 >= (records.len() - 30) * 99, "{k:?}");
    let each = per_record(&bytes, records.len());
    assert!(each < 5.0, "{each} bytes a position");
}

#[test]
fn empty_and_single_record_files() {
    let bytes = round_trip(&[], VERSION);
    assert_eq!(bytes.len(), HEADER_SIZE);
    assert!(is_chained(&bytes));
    let bytes = round_trip(&[], VERSION_V1);
    assert_eq!(read_header(&bytes, "t").unwrap().version, VERSION_V1);
    let one = games(1, 3)[5];
    round_trip(&[one], VERSION);
    let mut v1 = one;
    v1[RECORD_SIZE_V1..].fill(0);
    round_trip(&[v1], VERSION_V1);
    round_trip(&[[0u8; RECORD_SIZE]], VERSION);
}

/// Records that are not what self-play writes: each must come back.
fn odd_records(rng: &mut Rng) -> Vec<Raw> {
    let base = games(3, 11);
    let mut odd = Vec::new();
    // All zero: no pieces at all (decodes, plays nothing), twice running.
    odd.push([0u8; RECORD_SIZE]);
    odd.push([0u8; RECORD_SIZE]);
    // Bytes at random: not a record the reader would decode.
    for _ in 0..4 {
        let mut r = [0u8; RECORD_SIZE];
        r.iter_mut().for_each(|b| *b = rng.next_u64() as u8);
        odd.push(r);
    }
    let mut pick = || base[rng.below(base.len())];
    // Undefined flag bits, the reserved byte, an off-board best move, a
    // piece code past 13, an occupancy bit past 89, a stray nibble.
    let mut r = pick();
    r[32] |= 0x40;
    odd.push(r);
    let mut r = pick();
    r[33] = 7;
    odd.push(r);
    let mut r = pick();
    r[38..40].copy_from_slice(&(95u16 | 3 << 7).to_le_bytes());
    odd.push(r);
    let mut r = pick();
    r[12] |= 0x0f;
    odd.push(r);
    let mut r = pick();
    r[11] |= 0x10;
    odd.push(r);
    let mut r = pick();
    r[27] |= 0xf0;
    odd.push(r);
    // A side or result byte out of range.
    let mut r = pick();
    r[30] = 2;
    odd.push(r);
    let mut r = pick();
    r[31] = 3;
    odd.push(r);
    // No best move; a best move on the board that is not legal; a pass
    // when in check is not.
    let mut r = pick();
    r[38..40].fill(0);
    odd.push(r);
    let mut r = pick();
    r[38..40].copy_from_slice(&(1u16 | 89 << 7).to_le_bytes());
    odd.push(r);
    // Positions no game reaches: three chariots, a general outside its
    // palace, the side not to move in check, two Han generals.
    let fens = [
        "4ka3/4a4/9/9/2c6/9/9/R1R1R4/4A4/3AK4 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1",
        "4k4/4R4/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    ];
    for fen in fens {
        let mut s = Sample {
            pieces: Vec::new(),
            stm: Color::Cho,
            score: 12,
            result: 1,
        };
        for (rank, row) in fen.split(' ').next().unwrap().split('/').enumerate() {
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as u8;
                } else {
                    let sq = Square::from_coords(file, 9 - rank as u8).unwrap();
                    s.pieces.push((Piece::from_fen_char(c).unwrap(), sq));
                    file += 1;
                }
            }
        }
        s.pieces.sort_by_key(|&(_, sq)| sq);
        let best = Move::new(s.pieces[0].1, s.pieces[0].1);
        let meta = Meta {
            best: Some(best),
            ..Meta::default()
        };
        odd.push(s.encode_with(&meta).unwrap());
    }
    // Fields that disagree with what follows from the record before.
    for (at, bit) in [
        (32, Flags::IN_CHECK),
        (32, Flags::CAPTURE),
        (32, Flags::DECIDED),
    ] {
        let mut r = pick();
        r[at] ^= bit;
        odd.push(r);
    }
    // The largest ply and clock, so that the next ones wrap.
    let mut r = pick();
    r[34..38].fill(0xff);
    odd.push(r);
    odd
}

#[test]
fn odd_records_anywhere_come_back() {
    let mut rng = Rng::new(5);
    let odd = odd_records(&mut rng);
    for version in [VERSION, VERSION_V1] {
        let mut records = games(6, 21);
        // Each odd record inside a game, at its start and at its end.
        for (i, &o) in odd.iter().enumerate() {
            let at = (i * 37 + 5) % records.len();
            records.insert(at, o);
        }
        records.extend_from_slice(&odd);
        records.insert(0, odd[4]);
        if version == VERSION_V1 {
            for r in &mut records {
                r[RECORD_SIZE_V1..].fill(0);
            }
        }
        round_trip(&records, version);
        // Odd records alone, and each alone.
        let mut alone: Vec<Raw> = odd.clone();
        if version == VERSION_V1 {
            alone.iter_mut().for_each(|r| r[RECORD_SIZE_V1..].fill(0));
        }
        round_trip(&alone, version);
        for r in &alone {
            round_trip(&[*r, *r, *r], version);
        }
    }
}

#[test]
fn fields_that_disagree_with_derivation_are_kept() {
    let mut rng = Rng::new(17);
    let clean = games(8, 23);
    let mut records = clean.clone();
    for r in &mut records {
        match rng.below(12) {
            0 => r[32] ^= 1 << rng.below(5),
            1 => r[31] = rng.below(3) as u8,
            2 => r[34] ^= 1 + rng.below(255) as u8,
            3 => r[36] = rng.below(256) as u8,
            4 => r[28..30].copy_from_slice(&(rng.next_u64() as u16).to_le_bytes()),
            _ => {}
        }
    }
    let bytes = round_trip(&records, VERSION);
    // Still chained: only the fields are stored.
    let k = kinds(&bytes);
    assert_eq!(k[FULL as usize], 8, "{k:?}");
    assert!(bytes.len() > encode_vec(&clean, VERSION).len());
}

#[test]
fn records_that_do_not_follow_each_other() {
    // Two games interleaved record by record, a game played backwards, a
    // game with positions missing, and a position repeated.
    let a = game(1, 80, &mut Rng::new(1));
    let b = game(2, 80, &mut Rng::new(2));
    let mut mixed: Vec<Raw> = a.iter().zip(&b).flat_map(|(x, y)| [*x, *y]).collect();
    mixed.extend(a.iter().rev());
    mixed.extend(b.iter().step_by(3));
    mixed.extend(std::iter::repeat_n(a[10], 5));
    round_trip(&mixed, VERSION);
    let v1: Vec<Raw> = mixed
        .iter()
        .map(|r| {
            let mut r = *r;
            r[RECORD_SIZE_V1..].fill(0);
            r
        })
        .collect();
    round_trip(&v1, VERSION_V1);
}

#[test]
fn a_version_1_record_with_more_bytes_is_refused() {
    let mut out = IoCursor::new(Vec::new());
    let r = games(1, 1)[0];
    let e = encode([r], VERSION_V1, &mut out).unwrap_err();
    assert!(e.contains("past 32"), "{e}");
    let e = encode([r], 7, &mut IoCursor::new(Vec::new())).unwrap_err();
    assert!(e.contains("version 7"), "{e}");
}

#[test]
fn blocks_end_when_full_or_asked_and_files_concatenate() {
    let records = games(40, 31);
    assert!(records.len() > MAX_BLOCK);
    let bytes = round_trip(&records, VERSION);
    let mut r = &bytes[HEADER_SIZE..];
    let n = read_varint(&mut r, false).unwrap().unwrap();
    assert_eq!(n as usize, MAX_BLOCK);
    // A block a game.
    let mut w = ChainWriter::new(IoCursor::new(Vec::new()), VERSION).unwrap();
    let mut at = 0;
    for g in 0..5 {
        let one = game(g, 60, &mut Rng::new(g));
        for r in &one {
            w.push(r).unwrap();
        }
        w.end_block().unwrap();
        w.sync_count().unwrap();
        at += one.len();
        assert_eq!(w.count(), at as u64);
    }
    let (out, n) = w.finish().unwrap();
    let first = out.into_inner();
    assert_eq!(n, at as u64);
    assert_eq!(decode_vec(&first).unwrap().len(), at);
    // The blocks of two files, one after the other, are a file of both.
    let second = encode_vec(&records[..500], VERSION);
    let mut both = header(VERSION, n + 500).to_vec();
    both.extend_from_slice(&first[HEADER_SIZE..]);
    both.extend_from_slice(&second[HEADER_SIZE..]);
    let back = decode_vec(&both).unwrap();
    assert_eq!(&back[..at], &decode_vec(&first).unwrap()[..]);
    assert_eq!(&back[at..], &records[..500]);
}

#[test]
fn a_file_cut_inside_a_block_is_resumed_after_its_whole_blocks() {
    let g: Vec<Vec<Raw>> = (0..4).map(|n| game(n, 50, &mut Rng::new(n))).collect();
    let mut w = ChainWriter::new(IoCursor::new(Vec::new()), VERSION).unwrap();
    let mut ends = Vec::new();
    for one in &g {
        one.iter().for_each(|r| w.push(r).unwrap());
        w.end_block().unwrap();
        w.sync_count().unwrap();
        ends.push(w.out.position());
    }
    let full = w.finish().unwrap().0.into_inner();
    // Cut inside the last game's block, its count not yet written.
    let mut cut = full[..(ends[2] + ends[3]) as usize / 2].to_vec();
    cut[16..24].copy_from_slice(&((g[0].len() + g[1].len() + g[2].len()) as u64).to_le_bytes());
    // Read as a file being written: its whole blocks, the rest left.
    let mut r = ChainReader::new(&cut[..], "cut").unwrap();
    let mut got = Vec::new();
    while let Some(x) = r.next_record().unwrap() {
        got.push(x);
    }
    assert_eq!(got, g[..3].concat());
    assert_eq!(r.offset(), ends[2]);
    assert_eq!(r.offset() + r.tail(), cut.len() as u64);
    // Counting the last game too, it is a file cut short.
    let mut damaged = cut.clone();
    damaged[16..24].copy_from_slice(&(g.concat().len() as u64).to_le_bytes());
    let e = decode_vec(&damaged).unwrap_err();
    assert!(e.contains("ends inside a block"), "{e}");
    // Cut back to the whole blocks and go on.
    cut.truncate(r.offset() as usize);
    let mut out = IoCursor::new(cut);
    out.set_position(ends[2]);
    let mut w = ChainWriter::after(out, VERSION, got.len() as u64).unwrap();
    g[3].iter().for_each(|r| w.push(r).unwrap());
    let (out, n) = w.finish().unwrap();
    assert_eq!(n as usize, g.concat().len());
    assert_eq!(decode_vec(&out.into_inner()).unwrap(), g.concat());
}

#[test]
fn headers_tell_the_formats_apart() {
    let chained = header(VERSION, 5);
    assert!(is_chained(&chained));
    assert!(!is_chained(&header_for(VERSION, 5)));
    assert!(!is_chained(&header_for(VERSION_V1, 5)));
    assert!(!is_chained(&chained[..11]));
    assert_eq!(
        read_header(&chained, "f").unwrap(),
        ChainHeader {
            version: VERSION,
            count: 5
        }
    );
    // The fixed-record readers refuse a chained file by its version.
    let e = crate::train::record::read_header(&chained, "f").unwrap_err();
    assert!(e.contains("version 3"), "{e}");
    let e = read_header(&header_for(VERSION, 5), "f").unwrap_err();
    assert!(e.contains("not a chained"), "{e}");
    let mut h = chained;
    h[12] = 9;
    assert!(read_header(&h, "f").unwrap_err().contains("version 9"));
    let mut h = chained;
    h[30] = 1;
    assert!(read_header(&h, "f").unwrap_err().contains("24..32"));
    assert!(read_header(&chained[..31], "f")
        .unwrap_err()
        .contains("too short"));
}

/// Decodes hostile bytes: an error or the records, never a panic.
fn try_decode(bytes: &[u8]) -> Result<Vec<Raw>, String> {
    decode_vec(bytes)
}

#[test]
fn truncated_files_are_errors() {
    let records = games(3, 41);
    let bytes = encode_vec(&records, VERSION);
    for len in 0..bytes.len() {
        let e = try_decode(&bytes[..len]).unwrap_err();
        assert!(!e.contains('\n'), "{e}");
        if len >= HEADER_SIZE {
            assert!(
                e.contains("ends inside a block") || e.contains("file holds 0"),
                "{len}: {e}"
            );
        }
    }
    assert_eq!(try_decode(&bytes).unwrap(), records);
    // A count past the blocks' is a file cut short or damaged.
    let n = records.len() as u64;
    let mut b = bytes.clone();
    b[16..24].copy_from_slice(&(n + 1).to_le_bytes());
    let e = try_decode(&b).unwrap_err();
    assert!(
        e.contains("header counts") && e.contains("cut short"),
        "{e}"
    );
    // One short of them is a file being written (its writer counts now
    // and then), read whole, as the fixed-record formats are.
    b[16..24].copy_from_slice(&(n - 1).to_le_bytes());
    assert_eq!(try_decode(&b).unwrap(), records);
}

#[test]
fn a_skim_counts_what_a_reader_reads() {
    let records = games(3, 41);
    let mut w = ChainWriter::new(IoCursor::new(Vec::new()), VERSION).unwrap();
    for (i, r) in records.iter().enumerate() {
        w.push(r).unwrap();
        if i % 97 == 96 {
            w.end_block().unwrap();
        }
    }
    let bytes = w.finish().unwrap().0.into_inner();
    for counted in [0, 100, records.len() as u64] {
        let mut b = bytes.clone();
        b[16..24].copy_from_slice(&counted.to_le_bytes());
        for len in 0..=b.len() {
            let part = &b[..len];
            let read = ChainReader::new(part, "t").and_then(|mut r| {
                let mut n = 0u64;
                while r.next_record()?.is_some() {
                    n += 1;
                }
                Ok((n, r.offset(), r.tail()))
            });
            match (read, skim(part, "t")) {
                (Ok((n, whole, tail)), Ok(s)) => {
                    assert_eq!((s.records, s.whole, s.tail), (n, whole, tail), "{len}");
                    assert!(n >= counted);
                    assert_eq!(whole + tail, len as u64);
                }
                (Err(_), Err(_)) => {}
                (r, s) => panic!("{counted} {len}: {r:?} {s:?}"),
            }
        }
    }
}

#[test]
fn damaged_bytes_are_errors_never_other_records() {
    let records = v1_of(&games(2, 43), 44);
    let mut records2 = games(2, 45);
    records2.extend(odd_records(&mut Rng::new(46)));
    for (version, recs) in [(VERSION_V1, records), (VERSION, records2)] {
        let bytes = encode_vec(&recs, version);
        let mut rng = Rng::new(47);
        for trial in 0..3000 {
            let mut b = bytes.clone();
            let at = HEADER_SIZE + rng.below(bytes.len() - HEADER_SIZE);
            match trial % 3 {
                0 => b[at] ^= 1 << rng.below(8),
                1 => b[at] = rng.next_u64() as u8,
                _ => {
                    let end = (at + 1 + rng.below(16)).min(b.len());
                    b[at..end]
                        .iter_mut()
                        .for_each(|x| *x = rng.next_u64() as u8);
                }
            }
            if let Ok(back) = try_decode(&b) {
                // Only a change the records do not see (the check holds).
                assert_eq!(back, recs, "trial {trial}");
            }
        }
    }
}

#[test]
fn garbage_and_huge_lengths_are_errors_without_large_allocations() {
    let mut rng = Rng::new(51);
    for _ in 0..2000 {
        let mut b = header(VERSION, rng.next_u64()).to_vec();
        for _ in 0..rng.below(300) {
            b.push(rng.next_u64() as u8);
        }
        assert!(try_decode(&b).is_err());
    }
    let huge = |fields: &[u64]| {
        let mut b = header(VERSION, u64::MAX).to_vec();
        for &f in fields {
            put_varint(&mut b, f);
        }
        b.extend_from_slice(&[0; 8]);
        try_decode(&b).unwrap_err()
    };
    assert!(huge(&[u32::MAX as u64]).contains("a block of"));
    assert!(huge(&[0]).contains("a block of 0"));
    assert!(huge(&[u64::MAX]).contains("past 32 bits"));
    assert!(huge(&[5, 1 << 30]).contains("move stream"));
    assert!(huge(&[5, 0, 1 << 30]).contains("score stream"));
    assert!(huge(&[5, 0, 0, 1 << 30]).contains("extra stream"));
    assert!(huge(&[5, 0, 0, 0]).contains("ends inside a block"));
    // No blocks at all, and a count of many.
    let e = try_decode(&header(VERSION, u64::MAX)).unwrap_err();
    assert!(e.contains("file holds 0"), "{e}");
    let e = try_decode(b"JGNNDATA").unwrap_err();
    assert!(e.contains("too short"), "{e}");
}

#[test]
fn entries_that_reach_past_the_rules_are_errors() {
    // Hand-made blocks: one full record of the start position, then one
    // entry of each kind with something wrong in it.
    let start = game(0, 1, &mut Rng::new(1))[0];
    let block = |tags: &[u8], moves: &[u8], scores: &[u8], extra: &[u8], n: usize| {
        let mut s = Streams::default();
        s.tags.extend_from_slice(tags);
        s.moves.extend_from_slice(moves);
        s.scores.extend_from_slice(scores);
        s.extra.extend_from_slice(extra);
        // The check is of what the block decodes to, so it cannot be
        // right for a block that does not decode.
        let raws = vec![start; n];
        let mut b = header(VERSION, n as u64).to_vec();
        b.extend_from_slice(&assemble(&s, &raws, RECORD_SIZE));
        try_decode(&b).unwrap_err()
    };
    let full = |extra: &[u8]| {
        let mut x = start.to_vec();
        x.extend_from_slice(extra);
        x
    };
    // A step whose record has no best move that plays.
    let mut nobest = start;
    nobest[38..40].fill(0);
    let e = block(&[FULL, STEP], &[NO_MOVE], &[0], &nobest, 2);
    assert!(e.contains("no playable best move"), "{e}");
    // A best move's place past the legal moves.
    let e = block(&[FULL, STEP], &[250], &[0], &full(&[]), 2);
    assert!(e.contains("best move 250"), "{e}");
    // A path of no moves, of too many, past the legal moves.
    let e = block(&[FULL, PATH], &[0], &[0], &full(&[]), 2);
    assert!(e.contains("a path of 0"), "{e}");
    let e = block(&[FULL, PATH], &[9], &[0], &full(&[]), 2);
    assert!(e.contains("a path of 9"), "{e}");
    let e = block(&[FULL, PATH], &[1, 200, NO_MOVE], &[0], &full(&[]), 2);
    assert!(e.contains("past the legal moves"), "{e}");
    // A delta off the board, out of order, with a bad code, too full.
    let e = block(&[FULL, DELTA], &[NO_MOVE], &[0], &full(&[1, 90, 0]), 2);
    assert!(e.contains("point 90"), "{e}");
    let e = block(&[FULL, DELTA], &[NO_MOVE], &[0], &full(&[2, 5, 0, 4, 0]), 2);
    assert!(e.contains("point 4"), "{e}");
    let e = block(&[FULL, DELTA], &[NO_MOVE], &[0], &full(&[1, 5, 15]), 2);
    assert!(e.contains("code 15"), "{e}");
    // Soldiers on the first 40 points: more than 32 pieces.
    let mut fill = vec![40u8];
    for sq in 0..40u8 {
        fill.extend_from_slice(&[sq, 6]);
    }
    let e = block(&[FULL, DELTA], &[NO_MOVE], &[0], &full(&fill), 2);
    assert!(e.contains("pieces"), "{e}");
    // A score varint past 16 bits, a raw best move off the board, an
    // explicit result past 2.
    let e = block(
        &[FULL, DELTA],
        &[NO_MOVE],
        &[0xff, 0xff, 0x7f],
        &full(&[0]),
        2,
    );
    assert!(e.contains("past 16 bits"), "{e}");
    let e = block(&[FULL, DELTA], &[RAW_MOVE], &[0], &full(&[0, 95, 0x7f]), 2);
    assert!(e.contains("best move"), "{e}");
    let e = block(
        &[FULL, DELTA | EXPLICIT],
        &[NO_MOVE],
        &[0],
        &full(&[0, 0, 0, 0, 0, 3]),
        2,
    );
    assert!(e.contains("result 3"), "{e}");
    // An entry with nothing before it, a full tag with other bits, bytes
    // left over in a stream.
    let e = block(&[DELTA], &[NO_MOVE], &[0], &[0], 1);
    assert!(e.contains("follows nothing"), "{e}");
    let e = block(&[FULL | 4], &[], &[], &full(&[]), 1);
    assert!(e.contains("tag"), "{e}");
    let e = block(&[FULL], &[1], &[], &full(&[]), 1);
    assert!(e.contains("left in the move stream"), "{e}");
    // A block that decodes but is not the one its check was made for.
    let e = block(
        &[FULL, FULL],
        &[],
        &[],
        &[full(&[]), nobest.to_vec()].concat(),
        2,
    );
    assert!(e.contains("check"), "{e}");
}

/// The bytes a fixed game encodes to: a change of the rules core's moves,
/// of the codec's move order or of anything it derives changes them, and
/// files written before would no longer decode (their blocks' checks
/// would say so). Such a change needs a new format version, not a new
/// value here.
#[test]
fn the_format_is_fixed() {
    // The winning-capture flag from the codec's own exchange test, so that
    // a retuned search leaves these records as they are.
    let records: Vec<Raw> = games(4, 2024)
        .into_iter()
        .map(|mut r| {
            let k = Known::of_raw(&r, VERSION).unwrap();
            let w = k.pos.as_ref().is_some_and(exchange::winning_capture);
            r[32] &= !Flags::WINNING_CAPTURE;
            r[32] |= (w as u8) * Flags::WINNING_CAPTURE;
            r
        })
        .collect();
    let v2 = encode_vec(&records, VERSION);
    let v1 = encode_vec(&v1_of(&records, 2025), VERSION_V1);
    let sums = (v2.len(), fnv1a64(&v2), v1.len(), fnv1a64(&v1));
    assert_eq!(
        sums,
        (1452, 12038023656390121193, 1267, 10940607203450823456)
    );
}

/// Real self-play data from the store: the held-out shard (version 2) and
/// the start of a version-1 shard, when `xz` is there to unpack them
/// (stored chained, or fixed as the store once kept them).
fn store_records(name: &str, bytes: usize) -> Option<(u32, Vec<Raw>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("nets/data")
        .join(name);
    if !path.exists() {
        eprintln!("{}: not here, skipped", path.display());
        return None;
    }
    let out = match std::process::Command::new("xz")
        .arg("-dc")
        .arg(&path)
        .output()
    {
        Ok(o) if o.status.success() => o.stdout,
        _ => {
            eprintln!("xz could not unpack {}: skipped", path.display());
            return None;
        }
    };
    // The store keeps its files chained: its records are the first of them.
    if is_chained(&out) {
        let r = ChainReader::new(&out[..], name).unwrap();
        let version = r.version();
        let n = bytes / record_size(version).unwrap();
        let records = r.take(n).collect::<Result<Vec<Raw>, String>>().unwrap();
        return Some((version, records));
    }
    let h = crate::train::record::read_header(&out, name).unwrap();
    let size = h.record_size;
    let body = &out[HEADER_SIZE..];
    let body = &body[..body.len().min(bytes) / size * size];
    let records = body
        .chunks_exact(size)
        .map(|c| {
            let mut r = [0u8; RECORD_SIZE];
            r[..size].copy_from_slice(c);
            r
        })
        .collect();
    Some((h.version, records))
}

#[test]
fn store_shards_round_trip() {
    if let Some((version, records)) = store_records("heldout-seed7001.bin.xz", usize::MAX) {
        assert_eq!(version, VERSION);
        let bytes = round_trip(&records, version);
        let each = per_record(&bytes, records.len());
        assert!(each < 3.5, "{each} bytes a position");
        let k = kinds(&bytes);
        assert!(k[STEP as usize] * 100 > records.len() * 99, "{k:?}");
        // The frozen exchange test still derives datagen's flag.
        let mut agree = 0;
        for r in &records {
            let k = Known::of_raw(r, VERSION).unwrap();
            let derived = k.pos.as_ref().is_some_and(exchange::winning_capture);
            agree += (derived == k.meta.flags.has(Flags::WINNING_CAPTURE)) as usize;
        }
        assert!(
            agree * 1000 >= records.len() * 999,
            "{agree} of {}",
            records.len()
        );
    }
    if let Some((version, records)) = store_records("gen0_seed2.bin.xz", 32 * 20000) {
        assert_eq!(version, VERSION_V1);
        let bytes = round_trip(&records, version);
        let each = per_record(&bytes, records.len());
        assert!(each < 5.0, "{each} bytes a position");
    }
}

/// Reads a fixed-record data file's records (`JANGGUN_CHAIN_IN`), encodes
/// them to `JANGGUN_CHAIN_OUT` and checks the round trip: the measuring
/// tool behind the sizes in docs/FORMATS.md.
#[test]
#[ignore]
fn measure_file() {
    let Ok(input) = std::env::var("JANGGUN_CHAIN_IN") else {
        return;
    };
    let out = std::env::var("JANGGUN_CHAIN_OUT").unwrap();
    let mut reader = crate::train::record::RecordReader::open(Path::new(&input)).unwrap();
    let version = reader.version();
    let mut records = Vec::new();
    while let Some(r) = reader.next_record().unwrap() {
        records.push(r);
    }
    let t = std::time::Instant::now();
    let bytes = encode_vec(&records, version);
    let enc = t.elapsed();
    let t = std::time::Instant::now();
    let back = decode_vec(&bytes).unwrap();
    let dec = t.elapsed();
    assert!(back == records);
    std::fs::write(&out, &bytes).unwrap();
    // The fixed-record file the chained one expands to, read from it.
    if let Ok(fixed) = std::env::var("JANGGUN_CHAIN_BACK") {
        let size = record_size(version).unwrap();
        let reader = ChainReader::open(Path::new(&out)).unwrap();
        let mut file = header_for(version, reader.positions()).to_vec();
        for r in reader {
            file.extend_from_slice(&r.unwrap()[..size]);
        }
        std::fs::write(fixed, file).unwrap();
    }
    let mut kinds = [0u64; 4];
    let mut r = &bytes[HEADER_SIZE..];
    let mut blocks = 0;
    while !r.is_empty() {
        let n = read_varint(&mut r, false).unwrap().unwrap() as usize;
        let m = read_varint(&mut r, false).unwrap().unwrap() as usize;
        let s = read_varint(&mut r, false).unwrap().unwrap() as usize;
        let x = read_varint(&mut r, false).unwrap().unwrap() as usize;
        for &t in &r[4..4 + n] {
            kinds[(t & 3) as usize] += 1;
        }
        r = &r[4 + n + m + s + x..];
        blocks += 1;
    }
    eprintln!(
        "{input}: version {version}, {} records, {} bytes ({:.3} a record), {blocks} blocks, \
         step/path/delta/full {kinds:?}, encode {enc:?}, decode {dec:?}",
        records.len(),
        bytes.len(),
        bytes.len() as f64 / records.len() as f64
    );
}
