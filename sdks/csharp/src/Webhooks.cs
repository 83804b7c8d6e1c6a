using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;

namespace Fincore
{
    /// <summary>A verified webhook delivery. Deliveries may repeat: deduplicate on <see cref="Id"/>.</summary>
    public sealed class WebhookEvent
    {
        public WebhookEvent(string id, string type, double created, Dictionary<string, object> data)
        {
            Id = id;
            Type = type;
            Created = created;
            Data = data;
        }

        public string Id { get; }

        /// <summary>The event type, e.g. transactions.sync_updates_available.</summary>
        public string Type { get; }

        /// <summary>Unix seconds when the event was created.</summary>
        public double Created { get; }

        public Dictionary<string, object> Data { get; }
    }

    /// <summary>A delivery that must be rejected (answer it with a 400); <see cref="Reason"/> says why.</summary>
    public sealed class WebhookVerificationException : Exception
    {
        public WebhookVerificationException(string reason) : base("webhook rejected: " + reason)
        {
            Reason = reason;
        }

        /// <summary>
        /// One of missing_signature, missing_timestamp, malformed_timestamp, malformed_signature,
        /// signature_mismatch, timestamp_outside_window, invalid_body (checked in that order).
        /// </summary>
        public string Reason { get; }
    }

    /// <summary>
    /// Verifies webhook deliveries: any v1= entry of FC-Signature under any of the secrets you hold
    /// (HMAC-SHA256, constant-time comparison), then FC-Timestamp within the window in both
    /// directions, then the body.
    /// </summary>
    public static class WebhookVerifier
    {
        public const string SignatureHeader = "FC-Signature";
        public const string TimestampHeader = "FC-Timestamp";
        public const double DefaultToleranceSeconds = 300;

        private static readonly Regex TimestampPattern = new Regex("^[0-9]{1,15}$", RegexOptions.CultureInvariant);
        private static readonly Regex HexSignature = new Regex("^[0-9a-fA-F]{64}$", RegexOptions.CultureInvariant);

        /// <summary>Verifies one delivery.</summary>
        /// <param name="rawBody">The body exactly as received (never re-encoded JSON).</param>
        /// <param name="signature">The FC-Signature header (several copies joined with ","), null when absent.</param>
        /// <param name="timestamp">The FC-Timestamp header, null when absent.</param>
        /// <param name="secrets">The signing secrets you hold (during a rotation, the new and the previous one).</param>
        /// <param name="toleranceSeconds">The allowed clock distance either way: finite, 0 or more.</param>
        /// <param name="nowSeconds">The receiver's clock in Unix seconds; null means the real clock.</param>
        /// <exception cref="WebhookVerificationException">A delivery to reject.</exception>
        /// <exception cref="ArgumentException">A programming error: no secret, a non-finite or negative tolerance, a non-finite clock.</exception>
        public static WebhookEvent Verify(byte[] rawBody, string signature, string timestamp, IEnumerable<string> secrets,
            double toleranceSeconds = DefaultToleranceSeconds, double? nowSeconds = null)
        {
            var usable = (secrets ?? Enumerable.Empty<string>()).Where(s => !string.IsNullOrEmpty(s)).ToList();
            if (usable.Count == 0) throw new ArgumentException("Verify needs at least one non-empty secret", nameof(secrets));
            // NaN or Infinity would make every window comparison false, i.e. accept any timestamp.
            if (double.IsNaN(toleranceSeconds) || double.IsInfinity(toleranceSeconds) || toleranceSeconds < 0)
                throw new ArgumentException("toleranceSeconds must be a finite number of seconds, 0 or more", nameof(toleranceSeconds));
            var now = nowSeconds ?? DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() / 1000.0;
            if (double.IsNaN(now) || double.IsInfinity(now)) throw new ArgumentException("nowSeconds must be a finite number", nameof(nowSeconds));

            var signatureHeader = (signature ?? "").Trim();
            if (signatureHeader.Length == 0) throw new WebhookVerificationException("missing_signature");
            var timestampHeader = (timestamp ?? "").Trim();
            if (timestampHeader.Length == 0) throw new WebhookVerificationException("missing_timestamp");

            // A repeated FC-Timestamp header is acceptable only when every copy is the same value.
            var stamps = timestampHeader.Split(',').Select(s => s.Trim()).Distinct().ToList();
            var stamp = stamps[0];
            if (stamps.Count != 1 || !TimestampPattern.IsMatch(stamp)) throw new WebhookVerificationException("malformed_timestamp");

            var given = ParseSignatures(signatureHeader);
            if (given == null) throw new WebhookVerificationException("malformed_signature");

            var matched = false;
            foreach (var secret in usable)
            {
                var expected = Hmac(secret, stamp, rawBody);
                // Every pair is compared (no early exit) so timing says nothing about which entry matched.
                foreach (var candidate in given) if (FixedTimeEquals(candidate, expected)) matched = true;
            }
            if (!matched) throw new WebhookVerificationException("signature_mismatch");

            if (Math.Abs(now - double.Parse(stamp, CultureInfo.InvariantCulture)) > toleranceSeconds) throw new WebhookVerificationException("timestamp_outside_window");

            var webhookEvent = ParseEvent(rawBody);
            if (webhookEvent == null) throw new WebhookVerificationException("invalid_body");
            return webhookEvent;
        }

        private static byte[] Hmac(string secret, string timestamp, byte[] body)
        {
            using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret)))
            {
                var prefix = Encoding.UTF8.GetBytes(timestamp + ".");
                hmac.TransformBlock(prefix, 0, prefix.Length, null, 0);
                hmac.TransformFinalBlock(body, 0, body.Length);
                return hmac.Hash;
            }
        }

        private static bool FixedTimeEquals(byte[] a, byte[] b)
        {
            if (a.Length != b.Length) return false;
            var difference = 0;
            for (var i = 0; i < a.Length; i++) difference |= a[i] ^ b[i];
            return difference == 0;
        }

        /// <summary>The v1 signatures; null when the header is not a list of scheme=value or has no v1 entry.</summary>
        private static List<byte[]> ParseSignatures(string header)
        {
            var found = new List<byte[]>();
            foreach (var part in header.Split(','))
            {
                var entry = part.Trim();
                var eq = entry.IndexOf('=');
                if (eq <= 0) return null;
                if (entry.Substring(0, eq) != "v1") continue; // other schemes are for other verifiers
                var value = entry.Substring(eq + 1);
                if (!HexSignature.IsMatch(value)) return null;
                var bytes = new byte[32];
                for (var i = 0; i < 32; i++) bytes[i] = byte.Parse(value.Substring(2 * i, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                found.Add(bytes);
            }
            return found.Count == 0 ? null : found;
        }

        private static WebhookEvent ParseEvent(byte[] rawBody)
        {
            object parsed;
            try
            {
                parsed = Json.Parse(new UTF8Encoding(false, false).GetString(rawBody));
            }
            catch (JsonException)
            {
                return null;
            }
            var e = parsed as Dictionary<string, object>;
            if (e == null) return null;
            var id = e.TryGet("id") as string;
            var type = e.TryGet("type") as string;
            var created = e.TryGet("created");
            var data = e.TryGet("data") as Dictionary<string, object>;
            if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(type) || data == null) return null;
            if (!(created is long) && !(created is double)) return null;
            var createdSeconds = Json.AsDouble(created);
            if (double.IsNaN(createdSeconds) || double.IsInfinity(createdSeconds)) return null;
            return new WebhookEvent(id, type, createdSeconds, data);
        }
    }
}
