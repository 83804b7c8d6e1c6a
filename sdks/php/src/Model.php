<?php

// No strict_types here on purpose: properties are assigned from decoded JSON in PHP's coercive mode,
// so a JSON integer fills a float property (12 -> 12.0) as the contract's `number` intends.

namespace Fincore;

/**
 * Base of every generated model; each subclass lists its fields in WIRE as
 * [property, wire name, type descriptor, required].
 *
 * Decoding is tolerant of growth: unknown keys are kept in $extraFields and a missing optional field
 * is null. Encoding (jsonSerialize / toArray) writes wire names, drops optional fields left null and
 * keeps empty objects as JSON objects.
 */
abstract class Model implements \JsonSerializable
{
    public const WIRE = [];

    /** @var array<string, mixed> Keys the server sent that this library version does not know. */
    public array $extraFields = [];

    /**
     * Decodes a JSON object (as json_decode(..., true) gives it).
     *
     * @param array<string, mixed> $data
     */
    public static function fromArray(array $data): static
    {
        $model = (new \ReflectionClass(static::class))->newInstanceWithoutConstructor();
        $known = [];
        foreach (static::WIRE as [$property, $wire, $type, $required]) {
            $known[$wire] = true;
            if (array_key_exists($wire, $data)) {
                $model->{$property} = self::decode($type, $data[$wire]);
            } elseif (!$required) {
                $model->{$property} = null;
            }
        }
        $model->extraFields = array_diff_key($data, $known);
        return $model;
    }

    /** @return array<string, mixed> The JSON object as a PHP array (nested models as arrays). */
    public function toArray(): array
    {
        return json_decode(json_encode($this, JSON_THROW_ON_ERROR), true, 512, JSON_THROW_ON_ERROR);
    }

    public function jsonSerialize(): object
    {
        $out = $this->extraFields;
        foreach (static::WIRE as [$property, $wire, , $required]) {
            $value = (new \ReflectionProperty($this, $property))->isInitialized($this) ? $this->{$property} : null;
            if ($value === null && !$required) {
                continue;
            }
            $out[$wire] = $value;
        }
        return (object) $out;
    }

    /**
     * A value in its typed form: arrays in the shape of a model become that model.
     *
     * @param string|array{0: string, 1: mixed} $type
     */
    public static function decode(string|array $type, mixed $value): mixed
    {
        if ($value === null || is_string($type)) {
            return $type === 'number' && is_int($value) ? (float) $value : $value;
        }
        [$kind, $inner] = $type;
        return match ($kind) {
            'nullable' => self::decode($inner, $value),
            'array' => is_array($value) && array_is_list($value) ? array_map(fn ($item) => self::decode($inner, $item), $value) : $value,
            'map' => is_array($value) ? array_map(fn ($item) => self::decode($inner, $item), $value) : $value,
            'model' => is_array($value) ? $inner::fromArray($value) : $value,
            default => $value,
        };
    }
}
