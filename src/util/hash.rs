//! FNV-1a, 64 bits: a content hash (a net file's name carries it, so that
//! two different nets never share a name).

pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // The published FNV-1a test vectors.
        assert_eq!(super::fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(super::fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
        assert_eq!(super::fnv1a64(b"foobar"), 0x8594_4171_F739_67E8);
    }
}
