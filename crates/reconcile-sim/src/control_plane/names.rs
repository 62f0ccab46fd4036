//! The names the API server generates for `generateName`, as apiserver's
//! `names/generate.go` does. The random part comes from the run's own
//! stream ([`crate::rng::Stream::GeneratedNames`]), so a seed replays it.

use crate::rng::SimRng;

/// apimachinery `pkg/util/rand/rand.go`: "We omit vowels from the set of
/// available characters to reduce the chances of "bad words" being formed."
pub const ALPHABET: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";
/// `names/generate.go` `randomLength`.
pub const RANDOM_LENGTH: usize = 5;
/// `names/generate.go` `MaxGeneratedNameLength`: 63 − 5.
pub const MAX_GENERATED_NAME_LENGTH: usize = 63 - RANDOM_LENGTH;

/// `SimpleNameGenerator.GenerateName`: `base` cut to
/// [`MAX_GENERATED_NAME_LENGTH`] bytes, then 5 random characters of
/// [`ALPHABET`].
pub fn generate_name(base: &str, rng: &mut SimRng) -> String {
    let mut cut = base.len().min(MAX_GENERATED_NAME_LENGTH);
    while !base.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut name = String::with_capacity(cut + RANDOM_LENGTH);
    name.push_str(&base[..cut]);
    for _ in 0..RANDOM_LENGTH {
        let index = usize::try_from(rng.next_u64() % ALPHABET.len() as u64).unwrap_or(0);
        name.push(char::from(ALPHABET[index]));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_are_the_base_and_five_characters_of_the_alphabet() {
        let mut rng = SimRng::new(1);
        let name = generate_name("web-1-", &mut rng);
        assert_eq!(name.len(), "web-1-".len() + 5, "{name}");
        assert!(name.starts_with("web-1-"));
        // generate.go: the base is cut to 58 characters, so the name is at most 63.
        let long = "a".repeat(70);
        assert_eq!(generate_name(&long, &mut rng).len(), 63);
        // The same seed gives the same names.
        assert_eq!(
            generate_name("x-", &mut SimRng::new(9)),
            generate_name("x-", &mut SimRng::new(9))
        );
    }
}
