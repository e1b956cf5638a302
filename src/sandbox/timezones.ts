// The sandbox's time-zone list: real zones with ids of its own (the production ids are not
// public; samples use 1, 200 and 1720, which are here too). Offsets are the zones' standard ones.
import type { TimeZone } from '../api/schemas/timezones.js';

const ZONES: Array<[number, string, string, string]> = [
  [1, 'UTC', '(UTC+00:00) Coordinated Universal Time', '+00:00'],
  [2, 'Europe/London', '(UTC+00:00) London, Dublin, Lisbon', '+00:00'],
  [3, 'Europe/Berlin', '(UTC+01:00) Amsterdam, Berlin, Rome, Stockholm, Vienna', '+01:00'],
  [4, 'Europe/Paris', '(UTC+01:00) Brussels, Copenhagen, Madrid, Paris', '+01:00'],
  [5, 'Europe/Athens', '(UTC+02:00) Athens, Bucharest', '+02:00'],
  [6, 'Africa/Johannesburg', '(UTC+02:00) Harare, Pretoria', '+02:00'],
  [7, 'Europe/Moscow', '(UTC+03:00) Moscow, St. Petersburg', '+03:00'],
  [8, 'Asia/Dubai', '(UTC+04:00) Abu Dhabi, Muscat', '+04:00'],
  [9, 'Asia/Karachi', '(UTC+05:00) Islamabad, Karachi', '+05:00'],
  [35, 'Asia/Kolkata', '(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi', '+05:30'],
  [36, 'Asia/Kathmandu', '(UTC+05:45) Kathmandu', '+05:45'],
  [37, 'Asia/Dhaka', '(UTC+06:00) Dhaka', '+06:00'],
  [38, 'Asia/Bangkok', '(UTC+07:00) Bangkok, Hanoi, Jakarta', '+07:00'],
  [39, 'Asia/Singapore', '(UTC+08:00) Kuala Lumpur, Singapore', '+08:00'],
  [40, 'Asia/Shanghai', '(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi', '+08:00'],
  [41, 'Asia/Tokyo', '(UTC+09:00) Osaka, Sapporo, Tokyo', '+09:00'],
  [42, 'Australia/Sydney', '(UTC+10:00) Canberra, Melbourne, Sydney', '+10:00'],
  [43, 'Pacific/Auckland', '(UTC+12:00) Auckland, Wellington', '+12:00'],
  [200, 'America/New_York', '(UTC-05:00) Eastern Time (US & Canada)', '-05:00'],
  [201, 'America/Chicago', '(UTC-06:00) Central Time (US & Canada)', '-06:00'],
  [202, 'America/Denver', '(UTC-07:00) Mountain Time (US & Canada)', '-07:00'],
  [203, 'America/Los_Angeles', '(UTC-08:00) Pacific Time (US & Canada)', '-08:00'],
  [204, 'America/Sao_Paulo', '(UTC-03:00) Brasilia', '-03:00'],
  [205, 'America/Mexico_City', '(UTC-06:00) Guadalajara, Mexico City, Monterrey', '-06:00'],
  [206, 'America/Toronto', '(UTC-05:00) Toronto', '-05:00'],
  [1720, 'Asia/Riyadh', '(UTC+03:00) Kuwait, Riyadh', '+03:00'],
];

export const SANDBOX_TIME_ZONES: TimeZone[] = ZONES.map(([timeZoneId, name, displayName, utcOffset]) => ({
  timeZoneId,
  name,
  displayName,
  utcOffset,
}));
