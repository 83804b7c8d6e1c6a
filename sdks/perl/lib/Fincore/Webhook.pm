package Fincore::Webhook;

# Webhook signature verification: the same checks, in the same order, as the service's reference.
#
# Each delivery carries "FC-Timestamp: <Unix seconds>" and
# "FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp . '.' . raw body)>[,v1=<hex>...]"
# (one entry per active signing secret during a rotation).

use strict;
use warnings;

use B ();
use Carp qw(croak);
use Digest::SHA qw(hmac_sha256);
use Encode ();
use JSON::PP ();
use Scalar::Util qw(blessed looks_like_number);
use Time::HiRes ();

use constant {
    SIGNATURE_HEADER          => 'FC-Signature',
    TIMESTAMP_HEADER          => 'FC-Timestamp',
    DEFAULT_TOLERANCE_SECONDS => 300,
};

# The characters JavaScript's String.prototype.trim removes: headers are trimmed exactly as the
# reference implementation does, so every library reaches the same verdict.
my $JS_SPACE = qr/[\x{9}-\x{d}\x{20}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]/;

# Verifies one delivery and returns the event (a hashref: id, type, created, data); dies with a
# Fincore::Webhook::Failure (->reason) when it fails, croaks (a plain message) for arguments that
# are programming errors: no non-empty secret, or a tolerance or now that is not a finite number
# (NaN would otherwise switch the window off).
#
#   raw_body          the body bytes exactly as received (a character string is UTF-8 encoded)
#   signature         the FC-Signature header value (an arrayref when repeated)
#   timestamp         the FC-Timestamp header value (an arrayref when repeated)
#   secrets           one secret or an arrayref of several (during a rotation any may match)
#   tolerance_seconds allowed clock distance, either direction (default 300)
#   now               the receiver's clock in Unix seconds (default Time::HiRes::time)
sub verify {
    my (%args) = @_;
    my @secrets = grep { defined && length } (ref $args{secrets} eq 'ARRAY' ? @{ $args{secrets} } : ($args{secrets}));
    croak 'Fincore::Webhook::verify needs a non-empty secret' unless @secrets;
    my $tolerance = exists $args{tolerance_seconds} ? $args{tolerance_seconds} : DEFAULT_TOLERANCE_SECONDS;
    croak 'tolerance_seconds must be a finite number of seconds, 0 or more' unless _finite($tolerance) && $tolerance >= 0;
    my $now = defined $args{now} ? $args{now} : Time::HiRes::time();
    croak 'now must be a finite number of Unix seconds' unless _finite($now);
    my $body = _bytes($args{raw_body} // '');

    my $signature_header = _header_text($args{signature});
    _fail('missing_signature') unless defined $signature_header;
    my $timestamp_header = _header_text($args{timestamp});
    _fail('missing_timestamp') unless defined $timestamp_header;

    # A repeated FC-Timestamp header is acceptable only when every copy is the same value.
    my %seen;
    my @stamps = grep { !$seen{$_}++ } map { _trim($_) } split /,/, $timestamp_header, -1;
    my $stamp = $stamps[0];
    _fail('malformed_timestamp') if @stamps != 1 || $stamp !~ /\A[0-9]{1,15}\z/;

    my $given = _signatures($signature_header);
    _fail('malformed_signature') unless $given;

    my $matched = 0;
    for my $secret (@secrets) {
        my $expected = hmac_sha256("$stamp." . $body, _bytes($secret));
        # Every pair is compared (no early exit): timing says nothing about which entry matched.
        for my $candidate (@$given) {
            $matched = 1 if _same_bytes($candidate, $expected);
        }
    }
    _fail('signature_mismatch') unless $matched;
    _fail('timestamp_outside_window') if abs($now - $stamp) > $tolerance;

    my $event = _event($body);
    _fail('invalid_body') unless $event;
    return $event;
}

sub _fail { die Fincore::Webhook::Failure->new($_[0]) }

sub _finite {
    my ($value) = @_;
    return 0 if !defined $value || ref $value || !looks_like_number($value);
    return 0 if $value != $value;    # NaN
    return 0 if $value == 9**9**9 || $value == -9**9**9;
    return 1;
}

sub _bytes {
    my ($text) = @_;
    return $text unless utf8::is_utf8($text);
    my $copy = $text;
    utf8::encode($copy);
    return $copy;
}

sub _trim {
    my ($text) = @_;
    $text =~ s/\A$JS_SPACE+|$JS_SPACE+\z//g;
    return $text;
}

sub _header_text {
    my ($value) = @_;
    return undef unless defined $value;
    my @parts = grep { length } map { _trim($_ // '') } (ref $value eq 'ARRAY' ? @$value : ($value));
    return @parts ? join(',', @parts) : undef;
}

# The v1 signatures (raw bytes); undef when the header is not a list of scheme=value.
sub _signatures {
    my ($header) = @_;
    my @found;
    for my $part (split /,/, $header, -1) {
        my $entry = _trim($part);
        my $eq = index($entry, '=');
        return undef if $eq <= 0;
        my $scheme = substr($entry, 0, $eq);
        my $value = substr($entry, $eq + 1);
        next unless $scheme eq 'v1';    # other schemes are for other verifiers
        return undef unless $value =~ /\A[0-9a-fA-F]{64}\z/;
        push @found, pack('H*', $value);
    }
    return @found ? \@found : undef;
}

sub _same_bytes {
    my ($left, $right) = @_;
    return 0 unless length $left == length $right;
    my $diff = 0;
    $diff |= ord(substr($left, $_, 1)) ^ ord(substr($right, $_, 1)) for 0 .. length($left) - 1;
    return $diff == 0;
}

# A JSON string (not a number, boolean or object that happens to print as text).
sub _is_json_string {
    my ($value) = @_;
    return 0 if !defined $value || ref $value;
    my $flags = B::svref_2object(\$value)->FLAGS;
    return ($flags & B::SVp_POK) && !($flags & (B::SVp_IOK | B::SVp_NOK)) ? 1 : 0;
}

sub _is_finite_json_number {
    my ($value) = @_;
    return _finite($value->numify) if blessed $value && ($value->isa('Math::BigInt') || $value->isa('Math::BigFloat'));
    return 0 if !defined $value || ref $value || _is_json_string($value);
    return _finite($value);
}

sub _event {
    my ($body) = @_;
    # Invalid UTF-8 becomes U+FFFD (as the reference's decoder does) before parsing.
    my $text = Encode::decode('UTF-8', $body);
    my $value = eval { JSON::PP->new->allow_nonref->allow_bignum->max_depth(1_000_000)->decode($text) };
    return undef if $@ || ref $value ne 'HASH';
    my ($id, $type, $created, $data) = @{$value}{qw(id type created data)};
    return undef unless _is_json_string($id) && length $id && _is_json_string($type) && length $type;
    return undef unless _is_finite_json_number($created) && ref $data eq 'HASH';
    return { id => $id, type => $type, created => (blessed $created ? $created->numify : $created), data => $data };
}

package Fincore::Webhook::Failure;

# The delivery is not authentic or not well formed. ->reason is one of: missing_signature,
# missing_timestamp, malformed_timestamp, malformed_signature, signature_mismatch,
# timestamp_outside_window, invalid_body.

use overload '""' => sub { "webhook verification failed: $_[0]->{reason}\n" }, fallback => 1;

sub new { my ($class, $reason) = @_; return bless { reason => $reason }, $class }
sub reason { return $_[0]->{reason} }

1;
