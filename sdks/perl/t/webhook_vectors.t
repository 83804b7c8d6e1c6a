use strict;
use warnings;

# Every shared webhook vector (sdks/webhook-vectors.json) must give the reference's outcome.

use Digest::SHA qw(hmac_sha256_hex);
use Encode ();
use File::Basename qw(dirname);
use File::Spec;
use JSON::PP ();
use Scalar::Util qw(blessed);
use Test::More;

use Fincore::Webhook;

my $path = $ENV{FC_WEBHOOK_VECTORS} || File::Spec->catfile(dirname(__FILE__), '..', '..', 'webhook-vectors.json');
open my $fh, '<:raw', $path or die "cannot read $path: $!";
my $vectors = JSON::PP->new->utf8->decode(do { local $/; <$fh> })->{vectors};
ok(@$vectors > 0, 'vectors are present');

my %NON_FINITE = (NaN => 9**9**9 / 9**9**9, Infinity => 9**9**9, '-Infinity' => -9**9**9);
sub number { my ($v) = @_; return exists $NON_FINITE{$v} ? $NON_FINITE{$v} : $v }

sub outcome {
    my ($vector) = @_;
    my $event = eval {
        Fincore::Webhook::verify(
            raw_body          => Encode::encode('UTF-8', $vector->{body}),
            signature         => $vector->{signature},
            timestamp         => $vector->{timestamp},
            secrets           => $vector->{secrets},
            tolerance_seconds => number($vector->{tolerance_seconds}),
            now               => number($vector->{now}),
        );
    };
    my $error = $@;
    return { ok => JSON::PP::true, event_type => $event->{type} } unless $error;
    return { ok => JSON::PP::false, reason => $error->reason } if blessed $error && $error->isa('Fincore::Webhook::Failure');
    return { error => 'invalid_argument' };
}

for my $vector (@$vectors) {
    is_deeply(outcome($vector), $vector->{expected}, $vector->{name});
}

my $body = '{"id":"evt_1","type":"item.error","created":1700000000,"data":{}}';
my $signature = 'v1=' . hmac_sha256_hex("1700000000.$body", 'whsec_a');
my $event = Fincore::Webhook::verify(raw_body => $body, signature => ['v1=' . ('0' x 64), $signature],
    timestamp => ['1700000000', '1700000000'], secrets => 'whsec_a', now => 1700000000);
is($event->{type}, 'item.error', 'repeated headers arrive as array refs');
eval { Fincore::Webhook::verify(raw_body => $body, signature => $signature, timestamp => '1700000000', secrets => ['whsec_b'], now => 1700000000) };
is($@->reason, 'signature_mismatch', 'a wrong secret is a signature mismatch');

done_testing;
