// SHA-256 against the FIPS 180-2 examples and HMAC-SHA256 against RFC 4231.
use fincore::sha256::{constant_time_eq, hmac_sha256, sha256, to_hex, Sha256};

#[test]
fn fips_180_2_vectors() {
    let cases: [(&[u8], &str); 4] = [
        (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(to_hex(&sha256(input)), expected, "sha256({:?})", String::from_utf8_lossy(input));
    }
}

#[test]
fn one_million_a() {
    let data = vec![b'a'; 1_000_000];
    assert_eq!(to_hex(&sha256(&data)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

#[test]
fn incremental_updates_match_one_shot_at_every_split() {
    let data: Vec<u8> = (0..200u32).map(|i| (i * 7 % 251) as u8).collect();
    let whole = sha256(&data);
    for split in 0..data.len() {
        let mut hash = Sha256::new();
        hash.update(&data[..split]);
        hash.update(&data[split..]);
        assert_eq!(hash.finish(), whole, "split at {}", split);
    }
}

#[test]
fn rfc_4231_hmac_vectors() {
    let long_key = vec![0xaau8; 131];
    let cases: Vec<(Vec<u8>, Vec<u8>, &str)> = vec![
        (vec![0x0b; 20], b"Hi There".to_vec(), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (b"Jefe".to_vec(), b"what do ya want for nothing?".to_vec(), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (vec![0xaa; 20], vec![0xdd; 50], "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (long_key.clone(), b"Test Using Larger Than Block-Size Key - Hash Key First".to_vec(), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (
            long_key,
            b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".to_vec(),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
        ),
    ];
    for (key, data, expected) in cases {
        assert_eq!(to_hex(&hmac_sha256(&key, &[&data])), expected);
        // The message may arrive in parts (timestamp, ".", body).
        let (a, b) = data.split_at(data.len() / 2);
        assert_eq!(to_hex(&hmac_sha256(&key, &[a, b])), expected);
    }
}

#[test]
fn constant_time_eq_compares_length_and_content() {
    assert!(constant_time_eq(b"abc", b"abc"));
    assert!(!constant_time_eq(b"abc", b"abd"));
    assert!(!constant_time_eq(b"abc", b"ab"));
}
