use strict;
use warnings;

# Smoke test against a running Fincore service (the journey of bin/sdks/language.ts).
# Environment: FC_BASE_URL, FC_API_KEY and a captured webhook delivery (FC_WEBHOOK_SECRET,
# FC_WEBHOOK_BODY_FILE, FC_WEBHOOK_SIGNATURE, FC_WEBHOOK_TIMESTAMP, FC_WEBHOOK_TYPE).
# Prints one line `SMOKE {json}` and exits 0, or fails loudly.

use JSON::PP ();
use Scalar::Util qw(blessed);
use Time::HiRes ();

use Fincore::Client;

use constant UNKNOWN_ACCESS_TOKEN => 'access-sandbox-00000000-0000-0000-0000-000000000000';

sub env { my ($name) = @_; return $ENV{$name} // die "$name is not set\n" }

my $client = Fincore::Client->new(api_key => env('FC_API_KEY'), base_url => env('FC_BASE_URL'));

my $public_token = $client->sandbox->public_token_create(institution_id => 'ins_sandbox_first_bank', products => ['transactions'])->public_token;
my $access_token = $client->link->token_exchange(public_token => $public_token)->access_token;

my $deadline = Time::HiRes::time() + 60;
until ($client->items->get(access_token => $access_token)->item->transactions_update_status eq 'historical_update_complete') {
    die "the item's history did not finish loading within 60 s\n" if Time::HiRes::time() > $deadline;
    Time::HiRes::sleep(0.2);
}

my $accounts = $client->accounts->get(access_token => $access_token)->accounts;

my ($added, $pages, $cursor) = (0, 0, undef);
while (1) {
    my $page = $client->transactions->sync(access_token => $access_token, cursor => $cursor, count => 500);
    $pages++;
    $added += @{ $page->added };
    $cursor = $page->next_cursor;
    last unless $page->has_more;
}

eval { $client->items->get(access_token => UNKNOWN_ACCESS_TOKEN) };
my $error = $@;
die "items.get with an unknown access token did not fail\n" unless blessed $error && $error->isa('Fincore::Error');

open my $fh, '<:raw', env('FC_WEBHOOK_BODY_FILE') or die "cannot read the captured body: $!\n";
my $body = do { local $/; <$fh> };
my $event = Fincore::Webhook::verify(raw_body => $body, signature => env('FC_WEBHOOK_SIGNATURE'),
    timestamp => env('FC_WEBHOOK_TIMESTAMP'), secrets => env('FC_WEBHOOK_SECRET'));
my $expected_type = $ENV{FC_WEBHOOK_TYPE} // $event->{type};
die "verified event type $event->{type} differs from the captured $expected_type\n" unless $event->{type} eq $expected_type;

my $summary = {
    language     => 'perl',
    accounts     => scalar @$accounts,
    added        => $added,
    pages        => $pages,
    error        => {
        status             => $error->status + 0,
        type               => $error->type,
        code               => $error->code,
        request_id_present => (defined $error->request_id && length $error->request_id) ? JSON::PP::true : JSON::PP::false,
        documentation_url  => $error->documentation_url,
        display_message    => $error->display_message,
    },
    webhook_type => $event->{type},
};
print 'SMOKE ' . JSON::PP->new->canonical->encode($summary) . "\n";
