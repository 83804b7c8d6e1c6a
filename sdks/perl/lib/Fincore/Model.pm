package Fincore::Model;

# Base of every generated model (Fincore::Model::*); each lists its fields in @WIRE as
# [accessor, wire name, type descriptor, required].
#
# Decoding is tolerant: unknown keys are kept in extra_fields (the API may add fields), a value of an
# unexpected shape is kept as it came, a missing field is undef. Encoding writes wire names, drops
# optional fields left undef and sends required ones.

use strict;
use warnings;

use Carp qw(croak);
use Scalar::Util qw(blessed);

sub _wire {
    my ($class) = @_;
    no strict 'refs';
    return @{ (ref($class) || $class) . '::WIRE' };
}

# Builds a model from named fields (a request): unknown names and missing required ones croak.
sub new {
    my ($class, %fields) = @_;
    my @wire = $class->_wire;
    my %known = map { $_->[0] => 1 } @wire;
    my @unknown = sort grep { !$known{$_} } keys %fields;
    croak "$class: unknown field(s) @unknown" if @unknown;
    my $self = bless { extra_fields => {} }, $class;
    for my $entry (@wire) {
        my ($accessor, undef, $type, $required) = @$entry;
        croak "$class: missing required field $accessor" if $required && !exists $fields{$accessor};
        $self->{$accessor} = decode_value($type, $fields{$accessor});
    }
    return $self;
}

# Decodes a JSON object (a hashref with wire names).
sub from_hash {
    my ($class, $hash) = @_;
    my $self = bless {}, $class;
    my %wires;
    for my $entry ($class->_wire) {
        my ($accessor, $wire, $type) = @$entry;
        $wires{$wire} = 1;
        $self->{$accessor} = decode_value($type, $hash->{$wire});
    }
    $self->{extra_fields} = { map { $_ => $hash->{$_} } grep { !$wires{$_} } keys %$hash };
    return $self;
}

# Keys the server sent that this library version does not know.
sub extra_fields { return $_[0]->{extra_fields} }

# The JSON object as a hashref with wire names (nested models included).
sub to_hash {
    my ($self) = @_;
    my %out = %{ $self->{extra_fields} || {} };
    for my $entry ($self->_wire) {
        my ($accessor, $wire, undef, $required) = @$entry;
        my $value = $self->{$accessor};
        next if !defined $value && !$required;
        $out{$wire} = encode_value($value);
    }
    return \%out;
}

# JSON::PP's convert_blessed hook.
sub TO_JSON { return $_[0]->to_hash }

sub decode_value {
    my ($type, $value) = @_;
    return $value if !defined $value || !ref $type;
    my ($kind, $inner) = @$type;
    return decode_value($inner, $value) if $kind eq 'nullable';
    return [ map { decode_value($inner, $_) } @$value ] if $kind eq 'array' && ref $value eq 'ARRAY';
    return { map { $_ => decode_value($inner, $value->{$_}) } keys %$value } if $kind eq 'map' && ref $value eq 'HASH';
    return $inner->from_hash($value) if $kind eq 'model' && ref $value eq 'HASH';
    return $value;
}

sub encode_value {
    my ($value) = @_;
    return $value->to_hash if blessed $value && $value->isa('Fincore::Model');
    return [ map { encode_value($_) } @$value ] if ref $value eq 'ARRAY';
    return { map { $_ => encode_value($value->{$_}) } keys %$value } if ref $value eq 'HASH';
    return $value;
}

1;
