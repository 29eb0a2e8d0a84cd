import Foundation
import TallyCore
import Testing

extension ServerProcessTests {
    /// Issue 27, item 1 through a real `tally serve`: account tokens are minted by the server and handed only to
    /// a caller that speaks for the customer; a token anyone can compute (the old derived one) carries no
    /// authority, so an attacker with the public key and the victim's `appUserId` captures none of the victim's
    /// purchases, whatever he posts first.
    @Suite struct AccountTokens {
        static let victim = "victim@example.com"
        static let attacker = "attacker@example.com"

        func fixture(ownership: String) throws -> ServerFixture {
            var options = ServerOptions()
            options.ownership = ownership
            return try ServerFixture(options)
        }

        /// The attacker's first move: one cheap purchase on his own Apple account carrying the victim's derived
        /// token (a modified client chooses it), posted for himself with the public key.
        func squat(_ fixture: ServerFixture, _ market: inout MarketStore, product: String = "market.coins.10",
                   token: String = DerivedAccountToken.of(AccountTokens.victim)) async throws -> String {
            let (bought, jws) = try market.buySigned(product, account: "attacker-apple-\(token.prefix(8))",
                                                     appAccountToken: token)
            let posted = try await fixture.client.postTransaction(jws, for: Self.attacker)
            #expect(posted.status == 200, "\(posted)")
            return bought.transactionId
        }

        /// Apple's ONE_TIME_CHARGE for `coins`, posted to the notification route.
        func oneTimeCharge(_ coins: StoreTransaction, _ market: MarketStore, to client: APIClient) async throws -> HTTPReply {
            let notification = ServerNotification(
                notificationType: .oneTimeCharge, notificationUUID: UUID().uuidString,
                signedDate: coins.signedDate ?? coins.purchaseDate,
                data: NotificationData(bundleId: "com.example.market", environment: .sandbox,
                                       signedTransactionInfo: try market.signed(coins)))
            return try await Notifications.post(try market.sign(notification), to: client)
        }

        func transactionIds(_ fixture: ServerFixture, _ customer: String) async throws -> Set<String> {
            Set(JSONFields.transactionIds(try await fixture.client.history(customer)))
        }

        @Test func theRouteMintsOneRandomTokenPerCustomerOnlyForACallerWhoSpeaksForIt() async throws {
            let fixture = try CustomerTokens().fixture(requireToken: false)
            let client = fixture.client
            let bare = try await client.accountTokenReply(Self.victim, key: fixture.keys.publicKey)
            #expect(bare.status == 401 && bare.errorCode == "customer_token_required",
                    "the public key alone gets no token, even with requireToken off: \(bare)")
            let minted = try await client.accountToken(Self.victim)
            let uuid = try #require(UUID(uuidString: minted))
            #expect(minted == uuid.uuidString.lowercased())
            #expect(minted.dropFirst(14).first == "4", "a UUIDv4: \(minted)")
            #expect(minted != DerivedAccountToken.of(Self.victim))
            #expect(try await client.accountToken(Self.victim) == minted, "the same token after")
            #expect(try await client.accountToken(Self.attacker) != minted, "one per customer")

            let victimToken = try CustomerTokens().token(fixture, for: Self.victim)
            let withToken = try await client.accountTokenReply(Self.victim, key: fixture.keys.publicKey,
                                                               customerToken: victimToken)
            #expect(withToken.status == 200, "\(withToken)")
            #expect(try withToken.json()["appAccountToken"] as? String == minted)
            let wrong = try await client.accountTokenReply(Self.attacker, key: fixture.keys.publicKey,
                                                           customerToken: victimToken)
            #expect(wrong.status == 403 && wrong.errorCode == "customer_token_mismatch", "\(wrong)")
            let anonymous = "$tally:anon:" + String(repeating: "ab12", count: 8)
            let anon = try await client.accountTokenReply(anonymous, key: fixture.keys.publicKey)
            #expect(anon.status == 200, "an anonymous id is its own proof: \(anon)")
            try fixture.server.killNow()  // SIGKILL right after the 200: the token was durable before it
            try fixture.restart()
            #expect(try await fixture.client.accountToken(Self.victim) == minted, "stored durably")
        }

        @Test(arguments: ["transfer", "keep"])
        func aSquattedDerivedTokenCapturesNoneOfTheVictimsCoins(_ ownership: String) async throws {
            let fixture = try fixture(ownership: ownership)
            let client = fixture.client
            var market = try fixture.market()
            _ = try await squat(fixture, &market)

            let minted = try await client.accountToken(Self.victim)
            let bought = try market.buySigned("market.coins.100", account: "victim-apple", appAccountToken: minted).1
            let posted = try await client.postTransaction(bought, for: Self.victim)
            #expect(posted.status == 200, "\(posted)")
            // An engine from before still sets the derived token: it carries no authority either.
            let old = try market.buySigned("market.coins.10", account: "victim-apple",
                                           appAccountToken: DerivedAccountToken.of(Self.victim)).1
            let oldPost = try await client.postTransaction(old, for: Self.victim)
            #expect(oldPost.status == 200, "\(oldPost)")
            #expect(JSONFields.balance(try await client.customer(Self.victim)) == 110)
            #expect(JSONFields.balance(try await client.customer(Self.attacker)) == 10, "his own cheap purchase only")
        }

        @Test func underKeepTheVictimsPremiumStaysTheVictims() async throws {
            let fixture = try fixture(ownership: "keep")
            let client = fixture.client
            var market = try fixture.market()
            _ = try await squat(fixture, &market)
            let minted = try await client.accountToken(Self.victim)
            var bought: Set<String> = []
            for token in [minted, DerivedAccountToken.of(Self.victim)] {
                let account = "victim-apple-\(token.prefix(8))"
                let (transaction, jws) = try market.buySigned("market.premium", account: account, appAccountToken: token)
                let posted = try await client.postTransaction(jws, for: Self.victim)
                #expect(posted.status == 200, "\(posted)")
                bought.insert(transaction.transactionId)
            }
            #expect(JSONFields.nonConsumables(try await client.customer(Self.victim)) == ["market.premium"])
            #expect(try await transactionIds(fixture, Self.victim) == bought)
            #expect(JSONFields.nonConsumables(try await client.customer(Self.attacker)).isEmpty)
        }

        @Test func underTransferARestorablePurchaseWithTheVictimsTokenMovesNoneOfTheVictimsChains() async throws {
            let fixture = try fixture(ownership: "transfer")
            let client = fixture.client
            var market = try fixture.market()
            let minted = try await client.accountToken(Self.victim)
            let derived = DerivedAccountToken.of(Self.victim)
            var bought: Set<String> = []
            for token in [minted, derived] {
                let (transaction, jws) = try market.buySigned("market.premium", account: "victim-apple-\(token.prefix(8))",
                                                              appAccountToken: token)
                #expect(try await client.postTransaction(jws, for: Self.victim).status == 200)
                bought.insert(transaction.transactionId)
            }
            // One cheap restorable purchase on the attacker's Apple account carrying the derived token, then one
            // carrying a guessed token: neither moves a chain of the victim.
            let viaDerived = try await squat(fixture, &market, product: "market.premium", token: derived)
            let viaGuess = try await squat(fixture, &market, product: "market.premium", token: UUID().uuidString.lowercased())
            #expect(JSONFields.nonConsumables(try await client.customer(Self.victim)) == ["market.premium"])
            #expect(try await transactionIds(fixture, Self.victim) == bought)
            #expect(JSONFields.items(try await client.history(Self.victim), kind: "transfer").isEmpty)
            #expect(try await transactionIds(fixture, Self.attacker) == [viaDerived, viaGuess], "his own purchases only")
        }

        @Test func aOneTimeChargeForAnUnownedChainWithANonMintedTokenWaitsAndIsNotTheAttackers() async throws {
            let fixture = try fixture(ownership: "transfer")
            let client = fixture.client
            var market = try fixture.market()
            let derived = DerivedAccountToken.of(Self.victim)
            _ = try await squat(fixture, &market, product: "market.premium", token: derived)

            let coins = try market.buy("market.coins.100", account: "victim-apple", appAccountToken: derived)
            let reply = try await oneTimeCharge(coins, market, to: client)
            #expect(reply.status == 200, "\(reply)")
            #expect(try reply.json()["result"] as? String == "pending", "\(reply)")
            #expect(JSONFields.balance(try await client.customer(Self.attacker)) == 0)
            // The victim's own post claims the chain, and the notification with it.
            #expect(try await client.postTransaction(try market.signed(coins), for: Self.victim).status == 200)
            #expect(JSONFields.balance(try await client.customer(Self.victim)) == 100)
            #expect(JSONFields.balance(try await client.customer(Self.attacker)) == 0)
        }

        @Test func aOneTimeChargeCarryingAMintedTokenReachesItsMinter() async throws {
            let fixture = try fixture(ownership: "transfer")
            let client = fixture.client
            var market = try fixture.market()
            let minted = try await client.accountToken(Self.victim)
            let coins = try market.buy("market.coins.100", account: "victim-apple", appAccountToken: minted)
            let reply = try await oneTimeCharge(coins, market, to: client)
            #expect(try reply.json()["result"] as? String == "applied", "\(reply)")
            #expect(JSONFields.balance(try await client.customer(Self.victim)) == 100)
        }
    }
}
