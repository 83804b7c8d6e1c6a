package Fincore::Client;

use strict;
use warnings;

use Fincore::Error;
use Fincore::Groups;
use Fincore::Model;
use Fincore::Transport;
use Fincore::Webhook;

our $VERSION = '0.1.0';

# One accessor per method group: $client->institutions, ->link, ->items, ...
for my $group (@Fincore::Groups::ALL) {
    my $name = $group->[0];
    no strict 'refs';
    *{"Fincore::Client::$name"} = sub { return $_[0]->{groups}{$name} };
}

sub new {
    my ($class, %options) = @_;
    my $transport = Fincore::Transport->new(%options);
    my %groups = map { $_->[0] => $_->[1]->new($transport) } @Fincore::Groups::ALL;
    return bless { transport => $transport, groups => \%groups }, $class;
}

sub transport { return $_[0]->{transport} }

1;

__END__

=head1 NAME

Fincore::Client - client library for the Fincore financial data API (core modules only)

=head1 SYNOPSIS

    use Fincore::Client;

    my $client = Fincore::Client->new(api_key => 'fc_sk_test_...', base_url => 'http://localhost:4010');
    my $accounts = $client->accounts->get(access_token => 'fc_at_...')->accounts;

=head1 OPTIONS

C<timeout> (seconds per attempt, default 30), C<max_retries> (extra attempts after a 429, or after a
5xx / network error on a retry-safe call; default 2), C<sleeper> (a code ref that waits; tests pass
a recorder), C<api_version> (sent as FC-Version when given).

=head1 ERRORS

Every failure dies with a L<Fincore::Error> (status, type, code, message, request_id, retry_after, documentation_url, display_message).

=head1 WEBHOOKS

See L<Fincore::Webhook>.

=cut
