//! Names as data: the [`name_table!`](crate::name_table) macro.

/// Declares a fieldless enum together with its names.
///
/// Each variant is `Variant = "name"`, optionally followed by
/// `| "alias" | …`. The macro emits the enum (with the attributes and docs
/// given) and:
///
/// - `ALL`: every variant, in declaration order;
/// - `NAMES`: their names, in the same order;
/// - `name(self)`: the variant's name;
/// - `from_name(&str)`: the variant with that name or alias, ignoring ASCII
///   case;
/// - `Display`, writing the name;
/// - with a trailing `parse_error: Type = constructor;`, `FromStr` with
///   `Err = Type`, where `constructor` is called with the rejected `&str`.
///
/// A `macro_rules!` table rather than `strum`: the choices here need their
/// own parse errors (an AMO name where a cardinality encoding is expected
/// is an error of its own, with its own message), which strum's
/// `ParseError` cannot carry, so a derive would still leave a hand-written
/// `FromStr` per type; and a declarative macro adds no proc-macro
/// dependency to a crate that has none. Other crates of the workspace
/// (`boardsat-solve`'s `SolverKind`) can use it too.
///
/// ```
/// boardsat_encode::name_table! {
///     /// A colour.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Colour {
///         /// The first.
///         Red = "red" | "r",
///         /// The second.
///         Green = "green",
///     }
///     parse_error: String = |name: &str| format!("no colour '{name}'");
/// }
///
/// assert_eq!(Colour::ALL, [Colour::Red, Colour::Green]);
/// assert_eq!(Colour::NAMES.join(", "), "red, green");
/// assert_eq!("R".parse::<Colour>(), Ok(Colour::Red));
/// assert_eq!(Colour::Green.to_string(), "green");
/// assert_eq!("blue".parse::<Colour>(), Err("no colour 'blue'".to_string()));
/// ```
#[macro_export]
macro_rules! name_table {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $canonical:literal $(| $alias:literal)*
            ),+ $(,)?
        }
        $(parse_error: $error:ty = $make_error:expr;)?
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $(
                $(#[$variant_meta])*
                $variant,
            )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; <[&str]>::len(&[$($canonical),+])] = [$($name::$variant),+];

            /// The names of [`Self::ALL`], in the same order.
            pub const NAMES: [&'static str; <[&str]>::len(&[$($canonical),+])] = [$($canonical),+];

            /// Lower-case name, as on the command line and in DIMACS comments.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $canonical,)+
                }
            }

            /// The value called `name` or one of its aliases, ignoring ASCII
            /// case.
            #[must_use]
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                $(
                    if name.eq_ignore_ascii_case($canonical)
                        $(|| name.eq_ignore_ascii_case($alias))*
                    {
                        return ::core::option::Option::Some($name::$variant);
                    }
                )+
                ::core::option::Option::None
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.name())
            }
        }

        $(
            impl ::core::str::FromStr for $name {
                type Err = $error;

                fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                    Self::from_name(s).ok_or_else(|| ($make_error)(s))
                }
            }
        )?
    };
}
