import HTTPTypes

extension HTTPField.Name {
    /// The vendor a request of the 2022 API names.
    package static var identifier: Self { Self("identifier")! }
    /// The host, scheme and client a proxy in front (deploy/nginx) says it forwarded.
    package static var forwardedHost: Self { Self("X-Forwarded-Host")! }
    package static var forwardedProto: Self { Self("X-Forwarded-Proto")! }
    package static var forwardedFor: Self { Self("X-Forwarded-For")! }
    /// The storefront's script says `fetch` here for the requests it sends in the background.
    package static var requestedWith: Self { Self("X-Requested-With")! }
    package static var referrerPolicy: Self { Self("Referrer-Policy")! }
}
