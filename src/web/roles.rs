//! The role a handler needs, as an extractor that hands it the caller as
//! the services see them ([`Actor`]). A handler names its role in its
//! signature (`Director(actor): Director`) instead of checking it first
//! thing; the answers are those of the checks they replace:
//!
//! - pages ([`Director`], [`Staff`], [`Admin`]): nobody signed in → the
//!   sign-in page with `next`; a role that does not reach → 403 page
//!   (`PageCtx::actor`). The staff scopes' guards
//!   (`middleware::director_only`…) answer the same before any handler.
//! - the JSON API ([`ApiDirector`], [`ApiStaff`], [`ApiAdmin`]): no or a
//!   wrong bearer token → 401 JSON (`bearer::ApiActor`); a role that does
//!   not reach → 403 JSON `forbidden` in the request's language.
//!
//! Whether the caller directs or referees *this* tournament stays with the
//! services, in the transaction of the use case (another director's
//! tournament is a 404, as before).

use std::future::{ready, Future, Ready};
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};

use crate::auth::Role;
use crate::services::Actor;
use crate::web::bearer::{forbidden, ApiActor};
use crate::web::context::PageCtx;

/// A page extractor for a role: the signed-in user if her role reaches it.
macro_rules! page_role {
    ($(#[$doc:meta])* $name:ident, $role:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(pub Actor);

        impl FromRequest for $name {
            type Error = actix_web::Error;
            type Future = Ready<Result<Self, Self::Error>>;

            fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
                ready(
                    PageCtx::from_request(req)
                        .actor($role)
                        .map($name)
                        .map_err(Into::into),
                )
            }
        }
    };
}

/// An API extractor for a role: the token's owner if her role reaches it.
macro_rules! api_role {
    ($(#[$doc:meta])* $name:ident, $role:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(pub Actor);

        impl FromRequest for $name {
            type Error = actix_web::Error;
            type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

            fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
                let caller = ApiActor::from_request(req, payload);
                let req = req.clone();
                Box::pin(async move {
                    let ApiActor(actor) = caller.await?;
                    if actor.role.allows($role) {
                        Ok($name(actor))
                    } else {
                        Err(forbidden(PageCtx::from_request(&req).lang).into())
                    }
                })
            }
        }
    };
}

page_role!(
    /// A director (or an administrator) signed in.
    Director,
    Role::Director
);
page_role!(
    /// Staff signed in: a referee, a director or an administrator.
    Staff,
    Role::Referee
);
page_role!(
    /// An administrator signed in.
    Admin,
    Role::Admin
);
api_role!(
    /// A director's (or an administrator's) bearer token.
    ApiDirector,
    Role::Director
);
api_role!(
    /// Staff's bearer token: a referee's, a director's or an administrator's.
    ApiStaff,
    Role::Referee
);
api_role!(
    /// An administrator's bearer token.
    ApiAdmin,
    Role::Admin
);
