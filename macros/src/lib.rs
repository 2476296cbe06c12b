//! The derive macros of [bevy_sweep](https://docs.rs/bevy_sweep). Use them through
//! `bevy_sweep::prelude`, which re-exports them next to the traits they implement.

use proc_macro::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Error, Fields, parse_macro_input};

/// The most layers a `u32` mask holds.
const MAX_LAYERS: usize = 32;

/// Implements `bevy_sweep::prelude::CollisionLayer` for an enum of unit variants: the n-th
/// variant, in declaration order, is bit `1 << n` (explicit discriminants play no part).
#[proc_macro_derive(CollisionLayer)]
pub fn derive_collision_layer(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match collision_layer(&input) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

fn collision_layer(input: &DeriveInput) -> Result<proc_macro2::TokenStream, Error> {
    let Data::Enum(data) = &input.data else {
        return Err(Error::new_spanned(
            &input.ident,
            "CollisionLayer can only be derived for an enum of unit variants",
        ));
    };
    if data.variants.is_empty() {
        return Err(Error::new_spanned(
            &input.ident,
            "CollisionLayer needs at least one variant",
        ));
    }
    if data.variants.len() > MAX_LAYERS {
        return Err(Error::new_spanned(
            &input.ident,
            format!(
                "CollisionLayer holds at most {MAX_LAYERS} layers (a u32 mask); this enum has {}",
                data.variants.len()
            ),
        ));
    }
    if let Some(variant) = data
        .variants
        .iter()
        .find(|variant| !matches!(variant.fields, Fields::Unit))
    {
        return Err(Error::new_spanned(
            variant,
            "CollisionLayer variants cannot carry fields: each variant is one layer",
        ));
    }

    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let arms = data.variants.iter().enumerate().map(|(index, variant)| {
        let ident = &variant.ident;
        let bit = 1u32 << index;
        quote! { Self::#ident => #bit }
    });
    let all = if data.variants.len() == MAX_LAYERS {
        u32::MAX
    } else {
        (1u32 << data.variants.len()) - 1
    };
    Ok(quote! {
        impl #impl_generics ::bevy_sweep::prelude::CollisionLayer for #name #type_generics #where_clause {
            fn to_bits(&self) -> u32 {
                match self {
                    #(#arms,)*
                }
            }

            fn all_bits() -> u32 {
                #all
            }
        }
    })
}
