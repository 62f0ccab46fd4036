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

/// `store.go` `maxNameGenerationCreateAttempts`: since Kubernetes 1.31
/// (`RetryGenerateName`, on by default; GA in 1.32) the server itself draws
/// a new name after a collision, up to 8 times in all.
pub const MAX_NAME_GENERATION_CREATE_ATTEMPTS: usize = 8;

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

/// `Store.createWithGenerateNameRetry`: a name for `base` that `taken`
/// does not hold, drawn at most [`MAX_NAME_GENERATION_CREATE_ATTEMPTS`]
/// times; after that the last draw, whose create answers AlreadyExists.
pub fn generate_free_name(base: &str, rng: &mut SimRng, taken: impl Fn(&str) -> bool) -> String {
    let mut name = generate_name(base, rng);
    for _ in 1..MAX_NAME_GENERATION_CREATE_ATTEMPTS {
        if !taken(&name) {
            break;
        }
        name = generate_name(base, rng);
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

    /// `createWithGenerateNameRetry`'s loop: a collision costs a new draw,
    /// and only 8 collisions in a row fail.
    #[test]
    fn a_taken_name_is_drawn_again_up_to_eight_times() {
        let draws: Vec<String> = {
            let mut rng = SimRng::new(3);
            (0..9).map(|_| generate_name("web-", &mut rng)).collect()
        };
        let first_free = generate_free_name("web-", &mut SimRng::new(3), |n| n == draws[0]);
        assert_eq!(first_free, draws[1]);
        let seven_taken = |n: &str| draws[..7].iter().any(|d| d == n);
        assert_eq!(
            generate_free_name("web-", &mut SimRng::new(3), seven_taken),
            draws[7]
        );
        let all_taken = |_: &str| true;
        assert_eq!(
            generate_free_name("web-", &mut SimRng::new(3), all_taken),
            draws[7],
            "the eighth draw is the last; its create gets AlreadyExists"
        );
    }
}
