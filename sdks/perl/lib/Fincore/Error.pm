package Fincore::Error;

# The one error every API call dies with: an error answer, or a request that got no answer.
#
#   status      HTTP status (0 when no answer arrived: network error or timeout)
#   type, code  from the API's error table (invalid_request / invalid_field, ...); without an answer,
#               type connection_error and code timeout or network_error
#   message     the human-readable explanation
#   request_id  the server's request id (quote it to support); undef without an answer
#   retry_after seconds from the Retry-After header, when sent
#   documentation_url where the code is explained ({base_url}/docs/errors#<code>); undef without an error body
#   display_message   a sentence safe to show your end user; undef when the error is the integration's to fix

use strict;
use warnings;

use overload '""' => sub { $_[0]->as_string }, fallback => 1;

sub new {
    my ($class, %fields) = @_;
    return bless {%fields}, $class;
}

sub status      { return $_[0]->{status} }
sub type        { return $_[0]->{type} }
sub code        { return $_[0]->{code} }
sub message     { return $_[0]->{message} }
sub request_id  { return $_[0]->{request_id} }
sub retry_after { return $_[0]->{retry_after} }
sub body        { return $_[0]->{body} }
sub documentation_url { return $_[0]->{documentation_url} }
sub display_message   { return $_[0]->{display_message} }

sub throw {
    my ($class, %fields) = @_;
    die $class->new(%fields);
}

sub as_string {
    my ($self) = @_;
    my $request = defined $self->{request_id} ? " (request $self->{request_id})" : '';
    return "Fincore::Error $self->{status} $self->{type}/$self->{code}: $self->{message}$request\n";
}

1;
