#pragma once
// Fatal errors are values: a message a user can act on, naming the file and the reason.
// (Recoverable oddities are ImportIssues instead.)

#include <string>
#include <utility>
#include <variant>

namespace rankscope::model {

struct Error {
    std::string message;
};

template <class T>
class Result {
public:
    Result(T value)
        : m_value(std::move(value))
    {
    }
    Result(Error error)
        : m_value(std::move(error))
    {
    }

    bool ok() const { return std::holds_alternative<T>(m_value); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_value); }
    const T& value() const { return std::get<T>(m_value); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<Error>(m_value); }

private:
    std::variant<T, Error> m_value;
};

} // namespace rankscope::model
