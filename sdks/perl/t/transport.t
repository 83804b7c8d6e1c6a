use strict;
use warnings;

# Retries, backoff and error mapping against a tiny local HTTP stub (no real sleeping).

use File::Basename qw(dirname);
use lib dirname(__FILE__) . '/lib';
use IO::Socket::INET;
use Scalar::Util qw(blessed);
use Test::More;

use Fincore::Client;
use StubServer;

my $KEY = 'fc_sk_test_abcdefghijklmnop';
my %ITEM = (item => {
    item_id => 'it_1', institution_id => 'ins_1', institution_name => 'Bank', status => 'healthy', connector => 'sandbox',
    error => undef, consented_products => ['transactions'], last_successful_sync => undef, created_at => '2026-01-01T00:00:00Z',
    transactions_update_status => 'not_ready', future_field => 1,
});

sub error_body {
    my ($type, $code, $request_id) = @_;
    return { error => { type => $type, code => $code, message => 'm', request_id => $request_id // 'req_1' } };
}

# Runs $test with a client on a stub answering @answers; returns (the stub's requests, the delays).
sub with_stub {
    my ($answers, $test, %options) = @_;
    my $stub = StubServer->new(@$answers);
    my @delays;
    my $client = Fincore::Client->new(api_key => $KEY, base_url => $stub->url, sleeper => sub { push @delays, $_[0] }, %options);
    my $ok = eval { $test->($client); 1 };
    my $error = $@;
    my $requests = $stub->requests;
    $stub->close;
    die $error unless $ok;
    return ($requests, \@delays);
}

sub caught {
    my ($code) = @_;
    eval { $code->() };
    my $error = $@;
    die "no Fincore::Error: $error" unless blessed $error && $error->isa('Fincore::Error');
    return $error;
}

subtest 'sends the bearer key and JSON, decodes the model' => sub {
    my $answer;
    my ($requests) = with_stub([[200, {}, \%ITEM]], sub { $answer = $_[0]->items->get(access_token => 'fc_at_x') });
    isa_ok($answer, 'Fincore::Model::ItemsGetResponse');
    is($answer->item->institution_name, 'Bank');
    is_deeply($answer->item->extra_fields, { future_field => 1 }, 'unknown keys are kept');
    is($requests->[0]{path}, '/v1/items/get');
    is($requests->[0]{headers}{authorization}, "Bearer $KEY");
    is($requests->[0]{headers}{'content-type'}, 'application/json');
    is_deeply($requests->[0]{body}, { access_token => 'fc_at_x' });
};

subtest 'optional fields are omitted, required ones enforced, an empty body is an object' => sub {
    my $sync = { added => [], modified => [], removed => [], next_cursor => 'c', has_more => JSON::PP::false, transactions_update_status => 'not_ready' };
    my ($requests) = with_stub([[200, {}, $sync], [200, {}, { categories => [] }]], sub {
        $_[0]->transactions->sync(access_token => 'fc_at_x', count => 10);
        $_[0]->products->categories_get;
    });
    is_deeply($requests->[0]{body}, { access_token => 'fc_at_x', count => 10 });
    is_deeply($requests->[1]{body}, {}, 'categories_get sends {}');
    eval { Fincore::Model::TransactionsSyncRequest->new(count => 10) };
    like($@, qr/missing required field access_token/);
    eval { Fincore::Model::TransactionsSyncRequest->new(access_token => 'a', bogus => 1) };
    like($@, qr/unknown field/);
};

subtest '429 honours Retry-After even on an unsafe call' => sub {
    my $answer;
    my ($requests, $delays) = with_stub(
        [[429, { 'Retry-After' => '3' }, error_body('rate_limit_error', 'rate_limit_exceeded')], [200, {}, { access_token => 'fc_at_1', item_id => 'it_1', rotated => JSON::PP::false }]],
        sub { $answer = $_[0]->link->token_exchange(public_token => 'public-sandbox-1') });
    is($answer->access_token, 'fc_at_1');
    is_deeply($delays, [3]);
    is(scalar @$requests, 2);
};

subtest '429 without Retry-After backs off exponentially, then gives up' => sub {
    my $limited = [429, {}, error_body('rate_limit_error', 'rate_limit_exceeded')];
    my $error;
    my ($requests, $delays) = with_stub([$limited, $limited, $limited], sub { my $c = $_[0]; $error = caught(sub { $c->items->get(access_token => 'fc_at_x') }) });
    is($error->status, 429);
    is_deeply($delays, [0.5, 1]);
    is(scalar @$requests, 3);
};

subtest 'a monthly quota 429 is never retried and keeps retry_after' => sub {
    for my $code (qw(monthly_api_quota_exceeded monthly_ai_quota_exceeded)) {
        my $error;
        my ($requests, $delays) = with_stub([[429, { 'Retry-After' => '3' }, error_body('rate_limit_error', $code)], [200, {}, \%ITEM]],
            sub { my $c = $_[0]; $error = caught(sub { $c->items->get(access_token => 'fc_at_x') }) });
        is($error->code, $code);
        is($error->retry_after, 3);
        is_deeply($delays, [], "$code: no sleep");
        is(scalar @$requests, 1, "$code: one request");
    }
};

subtest 'a Retry-After over 60 seconds dies at once, keeping the value' => sub {
    my $error;
    my ($requests, $delays) = with_stub([[429, { 'Retry-After' => '1209600' }, error_body('rate_limit_error', 'rate_limit_exceeded')], [200, {}, \%ITEM]],
        sub { my $c = $_[0]; $error = caught(sub { $c->items->get(access_token => 'fc_at_x') }) });
    is($error->code, 'rate_limit_exceeded');
    is($error->retry_after, 1209600);
    is_deeply($delays, []);
    is(scalar @$requests, 1);
};

subtest '5xx is retried on a safe call' => sub {
    my $answer;
    my (undef, $delays) = with_stub(
        [[500, {}, error_body('api_error', 'internal_error')], [503, { 'Retry-After' => '2' }, error_body('api_error', 'storage_unavailable')], [200, {}, \%ITEM]],
        sub { $answer = $_[0]->items->get(access_token => 'fc_at_x') });
    is($answer->item->item_id, 'it_1');
    is_deeply($delays, [0.5, 2]);
};

subtest '5xx is not retried on an unsafe call' => sub {
    my $error;
    my ($requests, $delays) = with_stub([[500, {}, error_body('api_error', 'internal_error', 'req_9')], [200, {}, {}]],
        sub { my $c = $_[0]; $error = caught(sub { $c->link->token_exchange(public_token => 'public-sandbox-1') }) });
    is_deeply([$error->status, $error->code, $error->request_id], [500, 'internal_error', 'req_9']);
    is(scalar @$requests, 1);
    is_deeply($delays, []);
};

subtest 'max_retries is configurable' => sub {
    my ($requests) = with_stub([[503, {}, error_body('api_error', 'storage_unavailable')]],
        sub { my $c = $_[0]; caught(sub { $c->items->get(access_token => 'fc_at_x') }) }, max_retries => 0);
    is(scalar @$requests, 1);
};

subtest 'error mapping carries every field' => sub {
    my $error;
    with_stub([[400, { 'X-Request-Id' => 'req_header' }, error_body('invalid_request', 'invalid_field', 'req_body')]],
        sub { my $c = $_[0]; $error = caught(sub { $c->items->get(access_token => 'bad') }) });
    is_deeply([$error->status, $error->type, $error->code, $error->message, $error->request_id, $error->retry_after],
        [400, 'invalid_request', 'invalid_field', 'm', 'req_body', undef]);
};

subtest 'an error without a JSON body still has status and request id' => sub {
    my $error;
    with_stub([[502, { 'X-Request-Id' => 'req_h' }, 'bad gateway']],
        sub { my $c = $_[0]; $error = caught(sub { $c->items->get(access_token => 'fc_at_x') }) }, max_retries => 0);
    is_deeply([$error->status, $error->type, $error->request_id], [502, 'api_error', 'req_h']);
};

subtest 'a network error is retried only when safe' => sub {
    my $probe = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 1) or die $!;
    my $url = 'http://127.0.0.1:' . $probe->sockport;
    close $probe;
    my @delays;
    my $client = Fincore::Client->new(api_key => $KEY, base_url => $url, sleeper => sub { push @delays, $_[0] });
    my $error = caught(sub { $client->items->get(access_token => 'fc_at_x') });
    is_deeply([$error->status, $error->type], [0, 'connection_error']);
    is_deeply(\@delays, [0.5, 1]);
    @delays = ();
    caught(sub { $client->link->token_exchange(public_token => 'p') });
    is_deeply(\@delays, []);
};

done_testing;
