//! One module per reported bug of the traffic checker.

mod catch_all_value_is_ok;
mod deepest_message_is_written_as_text;
mod extension_result_null;
mod handshake_offer_is_a_negotiation;
mod limits_are_the_checkers;
mod number_past_format_is_lenient;
mod response_to_unknown_method_is_unchecked;
mod responses_pair_by_id_and_direction;
