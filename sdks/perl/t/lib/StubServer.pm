package StubServer;

# A tiny HTTP/1.1 server on 127.0.0.1 in a forked child: answers the queued [status, headers, body]
# in order (one request per connection) and logs each request (path, headers, JSON body) to a file
# the test reads after the call. Forking lets the synchronous client run in the test process.

use strict;
use warnings;

use File::Temp qw(tempfile);
use IO::Socket::INET;
use JSON::PP ();

my $JSON = JSON::PP->new->utf8->canonical->allow_nonref;

sub new {
    my ($class, @answers) = @_;
    my $server = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 5, ReuseAddr => 1)
        or die "stub server: $!";
    my (undef, $log) = tempfile(UNLINK => 0);
    my $pid = fork // die "stub server: fork: $!";
    if ($pid == 0) {
        _serve($server, $log, @answers);
        require POSIX;
        POSIX::_exit(0);
    }
    my $self = bless { pid => $pid, log => $log, url => 'http://127.0.0.1:' . $server->sockport }, $class;
    close $server;
    return $self;
}

sub url { return $_[0]->{url} }

sub requests {
    my ($self) = @_;
    open my $fh, '<', $self->{log} or return [];
    return [ map { $JSON->decode($_) } grep { /\S/ } <$fh> ];
}

sub close {
    my ($self) = @_;
    kill 'KILL', $self->{pid};
    waitpid $self->{pid}, 0;
    unlink $self->{log};
}

sub _serve {
    my ($server, $log, @answers) = @_;
    while (my $socket = $server->accept) {
        my $request_line = <$socket>;
        my %headers;
        while (my $line = <$socket>) {
            last if $line eq "\r\n";
            my ($name, $value) = $line =~ /\A([^:]+):\s*(.*?)\r?\n\z/;
            $headers{ lc $name } = $value;
        }
        my $body = '';
        read $socket, $body, $headers{'content-length'} // 0;
        my ($path) = (split / /, $request_line)[1];
        open my $fh, '>>', $log or die $!;
        print {$fh} $JSON->encode({ path => $path, headers => \%headers, body => (length $body ? $JSON->decode($body) : undef) }), "\n";
        CORE::close $fh;
        my ($status, $answer_headers, $answer) = @{ shift(@answers) // [500, {}, {}] };
        my $text = ref $answer ? $JSON->encode($answer) : $answer;
        my $out = "HTTP/1.1 $status X\r\nContent-Type: application/json\r\nContent-Length: " . length($text) . "\r\nConnection: close\r\n";
        $out .= "$_: $answer_headers->{$_}\r\n" for sort keys %$answer_headers;
        print {$socket} "$out\r\n$text";
        CORE::close $socket;
    }
}

1;
