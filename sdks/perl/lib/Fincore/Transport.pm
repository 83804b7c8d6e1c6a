package Fincore::Transport;

# HTTP transport over HTTP::Tiny: bearer auth, JSON, timeouts and retries.

use strict;
use warnings;

use Carp qw(croak);
use HTTP::Tiny;
use JSON::PP ();
use Scalar::Util qw(blessed looks_like_number);
use Time::HiRes ();

use Fincore::Error;

our $VERSION = '0.1.0';

use constant {
    DEFAULT_BASE_URL    => 'https://api.fincore.dev',
    DEFAULT_TIMEOUT     => 30,
    DEFAULT_MAX_RETRIES => 2,
};

my $JSON = JSON::PP->new->utf8->canonical->convert_blessed->allow_nonref;

sub new {
    my ($class, %options) = @_;
    croak 'api_key is required' unless defined $options{api_key} && length $options{api_key};
    my $max_retries = $options{max_retries} // DEFAULT_MAX_RETRIES;
    croak 'max_retries must be 0 or more' if $max_retries < 0;
    my $base_url = $options{base_url} // DEFAULT_BASE_URL;
    $base_url =~ s{/+\z}{};
    my $timeout = $options{timeout} // DEFAULT_TIMEOUT;
    return bless {
        api_key      => $options{api_key},
        base_url     => $base_url,
        timeout      => $timeout,
        max_retries  => $max_retries,
        backoff_base => $options{backoff_base} // 0.5,
        backoff_max  => $options{backoff_max} // 8,
        sleeper      => $options{sleeper} // sub { Time::HiRes::sleep($_[0]) },
        api_version  => $options{api_version},
        # verify_SSL: HTTP::Tiny does not check the server certificate unless told to (IO::Socket::SSL
        # and Net::SSLeay do the checking).
        http         => HTTP::Tiny->new(timeout => $timeout, agent => "fincore-perl/$VERSION", keep_alive => 1, verify_SSL => 1),
    }, $class;
}

sub timeout     { return $_[0]->{timeout} }
sub max_retries { return $_[0]->{max_retries} }

# Exponential: base, 2*base, 4*base, ... capped at backoff_max.
sub backoff {
    my ($self, $attempt) = @_;
    my $delay = $self->{backoff_base} * 2**$attempt;
    return $delay < $self->{backoff_max} ? $delay : $self->{backoff_max};
}

sub call {
    my ($self, $method, $path, $body, $response_class, $retry_safe) = @_;
    my $data = $self->request($method, $path, $body, $retry_safe);
    return $response_class->from_hash(ref $data eq 'HASH' ? $data : {});
}

sub request {
    my ($self, $method, $path, $body, $retry_safe) = @_;
    my $payload = $method eq 'GET' ? undef : $JSON->encode(defined $body ? $body : {});
    for (my $attempt = 0; ; $attempt++) {
        my $result = eval { $self->_send_once($method, $path, $payload) };
        return $result unless $@;
        my $error = $@;
        die $error unless blessed $error && $error->isa('Fincore::Error');
        # 429: the request was refused and did nothing, so it is always safe to repeat.
        # 5xx and no answer: the outcome is unknown, so only a retry-safe call repeats.
        my $status = $error->status;
        my $retryable = $status == 429 || ($retry_safe && ($status >= 500 || $status == 0));
        die $error if !$retryable || $attempt >= $self->{max_retries} || never_retried($error);
        $self->{sleeper}->(defined $error->retry_after ? $error->retry_after : $self->backoff($attempt));
    }
}

# The longest Retry-After the client sleeps through; a longer one dies at once (retry_after kept) so
# the caller, not a blocked process, decides when to come back.
use constant MAX_RETRY_AFTER_WAIT => 60;

# A monthly quota 429 carries the seconds until the monthly reset (days or weeks): never retried.
sub never_retried {
    my ($error) = @_;
    my $code = $error->code // '';
    return 1 if $code eq 'monthly_api_quota_exceeded' || $code eq 'monthly_ai_quota_exceeded';
    return defined $error->retry_after && $error->retry_after > MAX_RETRY_AFTER_WAIT;
}

sub retry_after_seconds {
    my ($value) = @_;
    return undef unless defined $value;
    $value =~ s/\A\s+|\s+\z//g;
    return undef unless $value =~ /\A[0-9]+(?:\.[0-9]+)?\z/;
    return $value + 0;
}

sub _send_once {
    my ($self, $method, $path, $payload) = @_;
    my %headers = (Authorization => "Bearer $self->{api_key}", Accept => 'application/json');
    $headers{'Content-Type'} = 'application/json' if defined $payload;
    $headers{'FC-Version'} = $self->{api_version} if defined $self->{api_version};
    my $response = $self->{http}->request($method, $self->{base_url} . $path,
        { headers => \%headers, (defined $payload ? (content => $payload) : ()) });
    my $status = $response->{status};
    if ($status == 599) {
        # HTTP::Tiny's own failure (no answer): the reason is in the content.
        my $reason = $response->{content} // 'no answer';
        my $code = $reason =~ /timed? ?out/i ? 'timeout' : 'network_error';
        Fincore::Error->throw(status => 0, type => 'connection_error', code => $code,
            message => "$method $path failed: $reason");
    }
    my $decoded = _decode($response->{content});
    return defined $decoded ? $decoded : {} if $status >= 200 && $status <= 299;
    my $error = ref $decoded eq 'HASH' && ref $decoded->{error} eq 'HASH' ? $decoded->{error} : undef;
    my $request_id = $response->{headers}{'x-request-id'};
    my $retry_after = retry_after_seconds($response->{headers}{'retry-after'});
    if ($error) {
        Fincore::Error->throw(status => $status, type => $error->{type} // 'api_error', code => $error->{code} // 'unknown',
            message => $error->{message} // '', request_id => $error->{request_id} // $request_id,
            retry_after => $retry_after, body => $decoded, documentation_url => $error->{documentation_url},
            display_message => $error->{display_message});
    }
    Fincore::Error->throw(status => $status, type => 'api_error', code => "http_$status",
        message => "HTTP $status without an error body", request_id => $request_id, retry_after => $retry_after);
}

sub _decode {
    my ($content) = @_;
    return undef unless defined $content && length $content;
    my $value = eval { $JSON->decode($content) };
    return $value;
}

1;
