//! A least-significant-digit radix sort of `u64`s on their high 32 bits: the broad phase's
//! sort keys (an order-preserving integer of a box's lower edge in the high half, the box's
//! index in the low half).

/// Bits of the key per pass: four passes of 8 bits cover the 32 bits of the key. (With three
/// passes of 11 bits the plugin's ordering of the swept bounds, this sort and moving the
/// bounds, took 71–73 instead of 62–65 µs at 10,000 boxes and 1.22–1.27 instead of
/// 1.13–1.15 ms at 100,000: 2,048 buckets scatter each pass's writes over more cache lines
/// than the first-level cache holds.)
const BITS: u32 = 8;
const PASSES: usize = 32 / BITS as usize;
const BUCKETS: usize = 1 << BITS;

/// An integer with the order of the float (`-0.0` just below `0.0`): the order of
/// [`f32::total_cmp`].
pub(crate) fn order_key(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits & 0x8000_0000 == 0 {
        bits | 0x8000_0000
    } else {
        !bits
    }
}

/// Sorts `values` by their high 32 bits, keeping the order of equal keys (so values pushed in
/// index order come out ordered by key, then index: what `sort_unstable` gives on the whole
/// `u64`). `scratch` is a buffer kept between calls. Linear in `values.len()`; passes on which
/// every key has the same digit are skipped, and so is everything if the keys are in order.
pub(crate) fn sort_by_high_half(values: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    let n = values.len();
    if n < 2 {
        return;
    }
    // Already in order (the plugin hands the broad phase its boxes sorted): one pass.
    if values.windows(2).all(|w| w[0] >> 32 <= w[1] >> 32) {
        return;
    }
    if n <= 64 {
        // Few values: an insertion sort beats four counting passes.
        values.sort_by_key(|v| v >> 32);
        return;
    }
    let digit = |v: u64, pass: u32| ((v >> (32 + pass * BITS)) as usize) & (BUCKETS - 1);
    let mut counts = [[0u32; BUCKETS]; PASSES];
    for &v in values.iter() {
        for (pass, count) in (0u32..).zip(counts.iter_mut()) {
            count[digit(v, pass)] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, 0);
    for (pass, count) in (0u32..).zip(counts.iter_mut()) {
        if count.contains(&(n as u32)) {
            continue;
        }
        // Counts into the first position of each digit.
        let mut next = 0u32;
        for c in count.iter_mut() {
            let here = *c;
            *c = next;
            next += here;
        }
        for &v in values.iter() {
            let slot = &mut count[digit(v, pass)];
            scratch[*slot as usize] = v;
            *slot += 1;
        }
        core::mem::swap(values, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::{order_key, sort_by_high_half};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Compared with the standard library's stable sort on the key, on random keys over the
    /// whole range, keys with few distinct values, and keys that differ only in one pass's
    /// digit.
    #[test]
    fn sorts_like_a_stable_sort_on_the_key() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x7ad1);
        let (mut values, mut scratch) = (Vec::new(), Vec::new());
        for n in [0usize, 1, 2, 63, 64, 65, 1000, 5000] {
            for mask in [u32::MAX, 0b111, 0xff << 8, 0x7ff << 11, 0xff00_0000, 0] {
                values.clear();
                values.extend(
                    (0..n as u64).map(|i| (u64::from(rng.random::<u32>() & mask) << 32) | i),
                );
                let mut expected = values.clone();
                expected.sort_by_key(|v| v >> 32);
                sort_by_high_half(&mut values, &mut scratch);
                assert_eq!(values, expected, "n = {n}, mask = {mask:#x}");
                // Sorted input stays as it is.
                sort_by_high_half(&mut values, &mut scratch);
                assert_eq!(values, expected, "n = {n}, mask = {mask:#x}, sorted");
            }
        }
    }

    #[test]
    fn order_key_keeps_the_order_of_floats() {
        let values = [
            f32::NEG_INFINITY,
            -1e30,
            -2.5,
            -f32::MIN_POSITIVE,
            -0.0,
            0.0,
            f32::MIN_POSITIVE,
            1.0,
            3e20,
            f32::INFINITY,
        ];
        for pair in values.windows(2) {
            assert!(order_key(pair[0]) < order_key(pair[1]), "{pair:?}");
        }
    }
}
